// The chat window: header with the screens, the chat list, the chat (or the Welcome page until a provider is chosen,
// or a panel), the side column, dialogs, toasts.
import { RulesPanel } from '../features/approvals/rules-panel';
import { ChatList } from '../features/chat/chat-list';
import { ChatView } from '../features/chat/chat-view';
import { ResultsList } from '../features/chat/results-list';
import { TodoList } from '../features/chat/todo-list';
import { SettingsPanel } from '../features/settings/settings-panel';
import { TasksPanel } from '../features/tasks/tasks-panel';
import { ToolsPanel } from '../features/tool-catalog/tools-panel';
import { WelcomePage } from '../features/welcome/welcome-page';
import { useTranslation } from '../i18n/i18n';
import { useAppStore } from '../store/app-store';
import { AppHeader } from './app-header';
import { DialogHost } from './dialogs/dialog-host';
import { ShortcutsSheet } from './shortcuts-sheet';
import { Toasts } from './toasts';
import { useShortcuts } from './use-shortcuts';

/** The whole chat window. */
export function App() {
  const { t } = useTranslation();
  useShortcuts();
  const view = useAppStore((s) => s.view);
  const settings = useAppStore((s) => s.settings);
  // No provider chosen yet: the Welcome page stands where the chat would (docs/hosts.md, "First run").
  const welcome = settings !== null && !settings.configured;
  return (
    <div className="app">
      <AppHeader />
      <ChatList />
      {view === 'chat' && (welcome ? <WelcomePage settings={settings} /> : <ChatView />)}
      {view === 'tools' && <ToolsPanel />}
      {view === 'rules' && <RulesPanel />}
      {view === 'settings' && <SettingsPanel />}
      <aside className="side" aria-label={t('app.sidePanel')}>
        <TodoList />
        <ResultsList />
        <TasksPanel />
      </aside>
      <DialogHost />
      <ShortcutsSheet />
      <Toasts />
    </div>
  );
}
