// One row of the message list: a user message, an assistant message (text and tool-call cards in order) or a note.
import { memo } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { MessageView } from '../../../preload/contract';
import { ToolCallCard } from '../tool-catalog/tool-call-card';
import { useAppStore } from '../../store/app-store';
import { CutLine } from '../../shared/ui/cut-line';
import { MarkdownView } from './markdown-view';
import { shownCode } from './hidden-characters';
import { ReasoningDisclosure } from './reasoning-disclosure';

const statusKey = {
  streaming: null,
  complete: null,
  cut: 'chat.cut',
  cancelled: 'chat.cancelled',
  interrupted: 'chat.interrupted',
} as const;

/** Renders one message; memoised on the message object, which the store replaces only when it changes. */
export const MessageRow = memo(function MessageRow({ message }: { message: MessageView }) {
  const { t } = useTranslation();
  const loadWholeMessage = useAppStore((s) => s.loadWholeMessage);
  switch (message.kind) {
    case 'user':
      return (
        <article className="message user" aria-label={t('chat.you')}>
          {message.text}
          <CutLine cut={message.cut} load={() => loadWholeMessage(message.id)} />
          {message.attachments.length > 0 && (
            <ul className="message-attachments" aria-label={t('chat.attachedFiles')}>
              {message.attachments.map((file, i) => (
                <li key={i} title={file.path ?? undefined}>
                  <span aria-hidden="true">📎 </span>
                  {file.name} <span className="muted">({file.mimeType})</span>
                </li>
              ))}
            </ul>
          )}
        </article>
      );
    case 'note':
      return (
        <article className="message note" aria-label={t('chat.note')}>
          {/* The app's words around a tool's output, shown as they are, never as Markdown: a background command's
              output forged the output's end line, hid the real one in an unclosed `<!--` and went on as a heading in
              the app's voice (docs/interface.md, "Notes"). Hidden characters show as escapes, as in code. */}
          <p className="note-text">{shownCode(message.text)}</p>
          <CutLine cut={message.cut} load={() => loadWholeMessage(message.id)} />
        </article>
      );
    case 'assistant': {
      const key = statusKey[message.status];
      const status = key ? t(key) : null;
      return (
        <article
          className={`message assistant${message.status === 'streaming' ? ' streaming' : ''}`}
          aria-label={t('chat.assistant')}
          aria-busy={message.status === 'streaming'}
        >
          {message.parts.length === 0 && message.status === 'streaming' && (
            <span className="muted">{t('chat.thinking')}</span>
          )}
          {message.parts.map((part, i) =>
            part.type === 'text' ? (
              <MarkdownView key={i} text={part.text} />
            ) : part.type === 'tool_call' ? (
              <ToolCallCard key={part.callId} callId={part.callId} name={part.name} />
            ) : null,
          )}
          <ReasoningDisclosure parts={message.parts} streaming={message.status === 'streaming'} />
          <CutLine cut={message.cut} load={() => loadWholeMessage(message.id)} />
          {status && <div className="message-status">{status}</div>}
        </article>
      );
    }
  }
});
