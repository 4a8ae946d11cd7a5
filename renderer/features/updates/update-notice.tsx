// The quiet "Restart to update" in the header: shown only once an update is downloaded and no turn or background task
// runs (main decides both; docs/release.md, "Updates").
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';

/** The header's update button, or nothing. */
export function UpdateNotice() {
  const { t } = useTranslation();
  const status = useAppStore((s) => s.updates?.status);
  const restart = useAppStore((s) => s.restartToUpdate);
  if (status?.state !== 'ready' || !status.restartable) return null;
  return (
    <button
      type="button"
      className="update-notice"
      title={t('updates.downloaded', { version: status.version })}
      onClick={() => void restart()}
    >
      {t('updates.restart')}
    </button>
  );
}
