// The Settings screen's "Updates" section: the setting that turns checking off, and where updating stands.
import type { UpdateStatus } from '../../../preload/contract';
import { currentLanguage, t, useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';

/** The updates part of the settings screen. */
export function UpdateSection() {
  // Renders again when the language changes; the words come from the catalogue's `t`.
  useTranslation();
  const updates = useAppStore((s) => s.updates);
  const setEnabled = useAppStore((s) => s.setUpdatesEnabled);
  return (
    <section aria-labelledby="updates-heading">
      <h2 id="updates-heading">{t('updates.heading')}</h2>
      {!updates ? (
        <p className="muted">{t('updates.loading')}</p>
      ) : (
        <>
          <label className="check">
            <input
              type="checkbox"
              checked={updates.enabled}
              onChange={(event) => void setEnabled(event.currentTarget.checked)}
            />
            {t('updates.enabled')}
          </label>
          <p role="status" aria-label={t('updates.status')}>
            {t('updates.version', { current: updates.current, state: describe(updates.status) })}
          </p>
        </>
      )}
    </section>
  );
}

function describe(status: UpdateStatus): string {
  switch (status.state) {
    case 'unsupported':
      return t('updates.unsupported', { reason: status.reason });
    case 'off':
      return t('updates.off');
    case 'idle':
      return status.checkedAt === null
        ? t('updates.notChecked')
        : t('updates.upToDate', { at: time(status.checkedAt) });
    case 'checking':
      return t('updates.checking');
    case 'downloading':
      return t('updates.downloading', { version: status.version, percent: status.percent });
    case 'ready':
      return status.restartable
        ? t('updates.readyNow', { version: status.version })
        : t('updates.readyLater', { version: status.version });
    case 'failed':
      return t('updates.failed', { at: time(status.checkedAt), message: status.message });
  }
}

/** A moment's time of day, as the UI's language writes it. */
const time = (at: number) => new Date(at).toLocaleTimeString(currentLanguage());
