// Browser mode's in-page modals: the oldest open dialog is shown over the chat; the others wait their turn.
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import { DialogView } from './dialog-view';

/** The in-page dialog layer (empty in Electron's chat window, where dialogs are windows of their own). */
export function DialogHost() {
  const { t } = useTranslation();
  const dialog = useAppStore((s) => s.dialogs[0]);
  const waiting = useAppStore((s) => s.dialogs.length - 1);
  if (!dialog) return null;
  return (
    <>
      <DialogView dialog={dialog} overlay />
      {waiting > 0 && (
        <div className="dialog-queue" role="status">
          {t('app.moreWaiting', { count: waiting })}
        </div>
      )}
    </>
  );
}
