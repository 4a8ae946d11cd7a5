// The window's header: the screens (chat, tools, rules, settings) and the state of the link to main.
import type { View } from './ui-slice';
import { useAppStore } from '../store/app-store';
import { UpdateNotice } from '../features/updates/update-notice';

const screens: Array<[View, string]> = [
  ['chat', 'Chat'],
  ['tools', 'Tools'],
  ['rules', 'Rules'],
  ['settings', 'Settings'],
];

/** The header bar. */
export function AppHeader() {
  const view = useAppStore((s) => s.view);
  const setView = useAppStore((s) => s.setView);
  const connection = useAppStore((s) => s.connection);
  const mode = useAppStore((s) => s.appInfo?.mode);
  return (
    <header className="app-header">
      <h1>Agenvoy</h1>
      <nav aria-label="Screens" className="screens">
        {screens.map(([id, label]) => (
          <button
            key={id}
            type="button"
            aria-current={view === id ? 'page' : undefined}
            onClick={() => setView(id)}
          >
            {label}
          </button>
        ))}
      </nav>
      <span className="spacer" />
      <UpdateNotice />
      {mode === 'web' && <span className="badge">browser mode</span>}
      <span className={`connection${connection.state === 'connected' ? '' : ' down'}`} role="status">
        {connection.state === 'connected'
          ? 'connected'
          : connection.state === 'reconnecting'
            ? `reconnecting (attempt ${connection.attempt})…`
            : `disconnected: ${connection.reason}`}
      </span>
    </header>
  );
}
