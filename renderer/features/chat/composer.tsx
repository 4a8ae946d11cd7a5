// The message box with Send and Stop: Enter sends, Shift+Enter adds a line. With no chat open it is ready all the same:
// sending creates a chat titled from the message.
import type { FormEvent, KeyboardEvent } from 'react';
import { useState } from 'react';
import { useAppStore } from '../../store/app-store';

/** The composer of the open chat. */
export function Composer() {
  const running = useAppStore((s) => s.chat.running);
  const chatId = useAppStore((s) => s.chat.chatId);
  const sendMessage = useAppStore((s) => s.sendMessage);
  const stopTurn = useAppStore((s) => s.stopTurn);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const canSend = !running && !sending && text.trim() !== '';

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    const sent = await sendMessage(text);
    setSending(false);
    if (sent) setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) void submit(event);
  };

  return (
    <form className="composer" onSubmit={(e) => void submit(e)}>
      <label htmlFor="composer-input">Message</label>
      <textarea
        id="composer-input"
        rows={2}
        value={text}
        placeholder={
          chatId
            ? 'Ask the agent… (Enter sends, Shift+Enter for a new line)'
            : 'Ask anything to start a new chat… (Enter sends, Shift+Enter for a new line)'
        }
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-buttons">
        <button type="submit" className="primary" disabled={!canSend}>
          Send
        </button>
        <button type="button" className="danger" disabled={!running} onClick={() => void stopTurn()}>
          Stop
        </button>
      </div>
    </form>
  );
}
