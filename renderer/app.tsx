// The chat window: header with the screens, the chat list, the chat (or a panel), the side column, dialogs, toasts.
import { ChatView } from './chat/chat-view';
import { DialogHost } from './dialogs/dialog-host';
import { AppHeader } from './panels/app-header';
import { RulesPanel } from './panels/rules-panel';
import { SettingsPanel } from './panels/settings-panel';
import { ToolsPanel } from './panels/tools-panel';
import { Toasts } from './panels/toasts';
import { ResultsList } from './side/results-list';
import { TasksPanel } from './side/tasks-panel';
import { TodoList } from './side/todo-list';
import { ChatList } from './sidebar/chat-list';
import { useAppStore } from './store/app-store';

/** The whole chat window. */
export function App() {
  const view = useAppStore((s) => s.view);
  return (
    <div className="app">
      <AppHeader />
      <ChatList />
      {view === 'chat' && <ChatView />}
      {view === 'tools' && <ToolsPanel />}
      {view === 'rules' && <RulesPanel />}
      {view === 'settings' && <SettingsPanel />}
      <aside className="side" aria-label="Chat side panel">
        <TodoList />
        <ResultsList />
        <TasksPanel />
      </aside>
      <DialogHost />
      <Toasts />
    </div>
  );
}
