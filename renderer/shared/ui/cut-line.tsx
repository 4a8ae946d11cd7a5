// Under a text the chat only begins (docs/interface.md, "Large calls"): how many characters are left, and a button
// that fetches the whole.
import { useState } from 'react';
import { useTranslation } from '../../i18n/i18n';

/** Nothing when `cut` is 0 or absent; else "… N more characters" and Show all, which runs `load` once at a time. */
export function CutLine({ cut, load }: { cut: number | undefined; load: () => Promise<void> }) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(false);
  if (!cut) return null;
  return (
    <div className="text-cut muted">
      {t('call.cut', { count: cut })}{' '}
      <button
        type="button"
        className="link-button"
        disabled={loading}
        onClick={() => {
          setLoading(true);
          void load().finally(() => setLoading(false));
        }}
      >
        {t('call.showAll')}
      </button>
    </div>
  );
}
