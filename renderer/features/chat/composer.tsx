// The message box with Attach, Send and Stop: Enter sends, Shift+Enter adds a line. Files come by pasting, dropping
// or the Attach button and wait as removable chips (docs/attachments.md). With no chat open it is ready all the same:
// sending creates a chat titled from the message.
import type { ClipboardEvent, DragEvent, FormEvent, KeyboardEvent } from 'react';
import { useRef, useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import { ariaShortcut, shortcutText } from '../../app/shortcuts';
import { useAppStore } from '../../store/app-store';
import type { PendingAttachment } from './composer-attachments';
import { addAttachments, attachmentInputs, formatSize } from './composer-attachments';

/** The composer of the open chat. */
export function Composer() {
  const { t } = useTranslation();
  const running = useAppStore((s) => s.chat.running);
  const chatId = useAppStore((s) => s.chat.chatId);
  const sendMessage = useAppStore((s) => s.sendMessage);
  const stopTurn = useAppStore((s) => s.stopTurn);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [pending, setPending] = useState<PendingAttachment[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const canSend = !running && !sending && (text.trim() !== '' || pending.length > 0);

  const attach = async (files: File[]) => {
    if (files.length === 0) return;
    const { added, refusals: refused } = await addAttachments(files, pending);
    setPending((current) => [...current, ...added]);
    setRefusals(refused);
  };
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    const sent = await sendMessage(text, attachmentInputs(pending));
    setSending(false);
    if (sent) {
      setText('');
      setPending([]);
      setRefusals([]);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) void submit(event);
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    // A pasted screenshot is a file alone; text pasted alongside files still goes into the box.
    if (!event.clipboardData.types.includes('text/plain')) event.preventDefault();
    void attach(files);
  };
  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    setDragging(false);
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    void attach([...event.dataTransfer.files]);
  };

  return (
    <form
      className={`composer${dragging ? ' dragging' : ''}`}
      onSubmit={(e) => void submit(e)}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="composer-main">
        {pending.length > 0 && (
          <ul className="attachment-chips" aria-label={t('chat.attachedFiles')}>
            {pending.map((file) => (
              <li key={file.id} className="attachment-chip">
                {file.preview && <img src={file.preview} alt="" width={28} height={28} />}
                <span className="attachment-name">{file.name}</span>
                <span className="muted">{formatSize(file.size)}</span>
                <button
                  type="button"
                  aria-label={t('composer.remove', { name: file.name })}
                  onClick={() => setPending((current) => current.filter((other) => other.id !== file.id))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        {refusals.length > 0 && (
          <div className="attachment-refusals" role="alert">
            {refusals.map((refusal) => (
              <p key={refusal}>{refusal}</p>
            ))}
          </div>
        )}
        <label htmlFor="composer-input">{t('composer.message')}</label>
        <textarea
          id="composer-input"
          rows={2}
          value={text}
          placeholder={chatId ? t('composer.placeholderChat') : t('composer.placeholderNew')}
          aria-keyshortcuts={ariaShortcut('focusComposer')}
          autoFocus
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
      </div>
      <input
        ref={picker}
        type="file"
        multiple
        hidden
        aria-label={t('composer.filesToAttach')}
        onChange={(e) => {
          void attach([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <div className="composer-buttons">
        <button type="submit" className="primary" disabled={!canSend}>
          {t('composer.send')}
        </button>
        <button type="button" onClick={() => picker.current?.click()}>
          {t('composer.attach')}
        </button>
        <button
          type="button"
          className="danger"
          disabled={!running}
          aria-keyshortcuts={ariaShortcut('stopTurn')}
          title={shortcutText('stopTurn')}
          onClick={() => void stopTurn()}
        >
          {t('composer.stop')}
        </button>
      </div>
    </form>
  );
}
