// The chat screen: its bar, the messages, what the turn is waiting for, and the composer.
import { TrustNotice } from '../trust/trust-notice';
import { useAppStore } from '../../store/app-store';
import { ChatBar } from './chat-bar';
import { Composer } from './composer';
import { MessageList } from './message-list';

/** The open chat, or an invitation to start one. */
export function ChatView() {
  const chatId = useAppStore((s) => s.chat.chatId);
  const loading = useAppStore((s) => s.chatLoading);
  const createChat = useAppStore((s) => s.createChat);
  if (!chatId) {
    return (
      <main className="chat">
        <TrustNotice />
        <div className="empty">
          {loading ? (
            'Opening…'
          ) : (
            <>
              <p>No chat open.</p>
              <button type="button" className="primary" onClick={() => void createChat()}>
                Start a new chat
              </button>
            </>
          )}
        </div>
        <Composer />
      </main>
    );
  }
  return (
    <main className="chat" aria-busy={loading}>
      <TrustNotice />
      <ChatBar />
      <MessageList />
      <TurnStatus />
      <Composer />
    </main>
  );
}

function TurnStatus() {
  const waiting = useAppStore((s) => s.chat.pendingApprovals);
  const error = useAppStore((s) => s.chat.turnError);
  const running = useAppStore((s) => s.chat.running);
  if (waiting.length > 0) {
    return (
      <div className="turn-status pending" role="status">
        Waiting for your approval: {waiting.map((w) => w.tool).join(', ')}
      </div>
    );
  }
  if (error) {
    return (
      <div className="turn-status error" role="alert">
        {error}
      </div>
    );
  }
  return (
    <div className="turn-status" role="status">
      {running ? 'Working…' : ''}
    </div>
  );
}
