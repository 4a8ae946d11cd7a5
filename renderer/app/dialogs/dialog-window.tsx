// A whole window for one dialog (Electron's modal windows): main closes it once it is answered.
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import { DialogView } from './dialog-view';

/** The dialog this window was opened for, or a note once it is answered. */
export function DialogWindow() {
  const { t } = useTranslation();
  const dialog = useAppStore((s) => s.dialogs[0]);
  const connection = useAppStore((s) => s.connection);
  if (!dialog) {
    return (
      <div className="dialog-window">
        <p className="muted" role="status">
          {connection.state === 'closed' ? t('app.dialogClosed') : t('app.nothingToAnswer')}
        </p>
      </div>
    );
  }
  return <DialogView dialog={dialog} overlay={false} />;
}
