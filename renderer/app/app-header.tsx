// The window's header: the screens (chat, tools, rules, settings), the keyboard help and the state of the link to main.
import { useTranslation } from '../i18n/i18n';
import type { View } from './ui-slice';
import { useAppStore } from '../store/app-store';
import { UpdateNotice } from '../features/updates/update-notice';
import { ariaShortcut, shortcutText } from './shortcuts';

const screens: View[] = ['chat', 'tools', 'rules', 'settings'];

/** The header bar. */
export function AppHeader() {
  const { t } = useTranslation();
  const view = useAppStore((s) => s.view);
  const setView = useAppStore((s) => s.setView);
  const setHelpOpen = useAppStore((s) => s.setHelpOpen);
  const connection = useAppStore((s) => s.connection);
  const mode = useAppStore((s) => s.appInfo?.mode);
  return (
    <header className="app-header">
      <h1>{t('app.name')}</h1>
      <nav aria-label={t('app.screens')} className="screens">
        {screens.map((id) => (
          <button
            key={id}
            type="button"
            aria-current={view === id ? 'page' : undefined}
            onClick={() => setView(id)}
          >
            {t(`app.${id}`)}
          </button>
        ))}
      </nav>
      <span className="spacer" />
      <UpdateNotice />
      {mode === 'web' && <span className="badge">{t('app.browserMode')}</span>}
      <button
        type="button"
        className="link-button"
        aria-keyshortcuts={ariaShortcut('help')}
        onClick={() => setHelpOpen(true)}
      >
        {t('keys.openHelp', { keys: shortcutText('help') })}
      </button>
      <span className={`connection${connection.state === 'connected' ? '' : ' down'}`} role="status">
        {connection.state === 'connected'
          ? t('app.connected')
          : connection.state === 'reconnecting'
            ? t('app.reconnecting', { attempt: connection.attempt })
            : t('app.disconnected', { reason: connection.reason })}
      </span>
    </header>
  );
}
