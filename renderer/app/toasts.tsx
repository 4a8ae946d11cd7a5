// Short notices in a corner: errors stay until dismissed, others fade after a few seconds.
import { useEffect } from 'react';
import { useTranslation } from '../i18n/i18n';
import type { Notice } from './ui-slice';
import { useAppStore } from '../store/app-store';

const LIFETIME_MS = 6000;

/** The notices stack. */
export function Toasts() {
  const notices = useAppStore((s) => s.notices);
  return (
    <div className="toasts" aria-live="polite">
      {notices.map((notice) => (
        <Toast key={notice.id} notice={notice} />
      ))}
    </div>
  );
}

function Toast({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  const dismiss = useAppStore((s) => s.dismissNotice);
  useEffect(() => {
    if (notice.level === 'error') return;
    const timer = setTimeout(() => dismiss(notice.id), LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [notice, dismiss]);
  return (
    <div className={`toast ${notice.level}`} role={notice.level === 'error' ? 'alert' : 'status'}>
      <span>{notice.message}</span>
      <button
        type="button"
        className="link-button"
        aria-label={t('app.dismiss')}
        onClick={() => dismiss(notice.id)}
      >
        ×
      </button>
    </div>
  );
}
