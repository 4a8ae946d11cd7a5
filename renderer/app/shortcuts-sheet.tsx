// The keyboard help sheet: every shortcut with what it does, from the one table in app/shortcuts.ts.
import { useTranslation } from '../i18n/i18n';
import { DialogFrame } from '../shared/ui/dialog-frame';
import { useAppStore } from '../store/app-store';
import type { ShortcutId } from './shortcuts';
import { shortcutText } from './shortcuts';

const ROWS: ShortcutId[] = ['newChat', 'focusComposer', 'stopTurn', 'allowOnce', 'deny', 'help'];

/** The sheet, while it is open. */
export function ShortcutsSheet() {
  const { t } = useTranslation();
  const open = useAppStore((s) => s.helpOpen);
  const setHelpOpen = useAppStore((s) => s.setHelpOpen);
  if (!open) return null;
  const close = () => setHelpOpen(false);
  return (
    <DialogFrame title={t('keys.title')} overlay onEscape={close} className="shortcuts-sheet">
      <p>{t('keys.intro')}</p>
      <table className="shortcuts-table">
        <thead>
          <tr>
            <th scope="col">{t('keys.shortcut')}</th>
            <th scope="col">{t('keys.action')}</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((id) => (
            <tr key={id}>
              <td>
                <kbd>{shortcutText(id)}</kbd>
              </td>
              <td>{t(`keys.${id}`)}</td>
            </tr>
          ))}
          <tr>
            <td>
              <kbd>Enter</kbd>
            </td>
            <td>{t('keys.send')}</td>
          </tr>
          <tr>
            <td>
              <kbd>Shift+Enter</kbd>
            </td>
            <td>{t('keys.newLine')}</td>
          </tr>
          <tr>
            <td>
              <kbd>Esc</kbd>
            </td>
            <td>{t('keys.closeDialog')}</td>
          </tr>
        </tbody>
      </table>
      <div className="dialog-buttons">
        <button type="button" className="primary" data-autofocus onClick={close}>
          {t('keys.close')}
        </button>
      </div>
    </DialogFrame>
  );
}
