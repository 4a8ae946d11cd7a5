// The chat screen: its bar, the messages, what the turn is waiting for, and the composer.
import { useTranslation } from '../../i18n/i18n';
import { TrustNotice } from '../trust/trust-notice';
import { useAppStore } from '../../store/app-store';
import { ChatBar } from './chat-bar';
import { Composer } from './composer';
import { MessageList } from './message-list';

/** The open chat, or an empty page whose composer starts one: the composer keeps its place (and its text) either way. */
export function ChatView() {
  const chatId = useAppStore((s) => s.chat.chatId);
  const loading = useAppStore((s) => s.chatLoading);
  return (
    <main className="chat" aria-busy={loading}>
      <TrustNotice />
      {chatId ? (
        <>
          <ChatBar />
          <MessageList />
          <TurnStatus />
        </>
      ) : (
        <EmptyChat loading={loading} />
      )}
      <Composer />
    </main>
  );
}

function EmptyChat({ loading }: { loading: boolean }) {
  const { t } = useTranslation();
  const createChat = useAppStore((s) => s.createChat);
  return (
    <div className="empty">
      {loading ? (
        t('chat.opening')
      ) : (
        <>
          <p>{t('chat.typeToStart')}</p>
          <button type="button" onClick={() => void createChat()}>
            {t('chat.newEmptyChat')}
          </button>
        </>
      )}
    </div>
  );
}

function TurnStatus() {
  const { t } = useTranslation();
  const waiting = useAppStore((s) => s.chat.pendingApprovals);
  const error = useAppStore((s) => s.chat.turnError);
  const running = useAppStore((s) => s.chat.running);
  if (waiting.length > 0) {
    return (
      <div className="turn-status pending" role="status">
        {t('chat.waitingApproval', { tools: waiting.map((w) => w.tool).join(', ') })}
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
      {running ? t('chat.working') : ''}
    </div>
  );
}
