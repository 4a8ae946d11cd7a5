// The open chat's title and workspace folder, both editable in place; its usage so far and its reasoning level.
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import { ModelPicker } from './model-picker';
import { ReasoningPicker } from './reasoning-picker';
import { ChatUsageTotal } from './usage-line';

/** Title, workspace, usage and reasoning of the open chat. */
export function ChatBar() {
  const { t } = useTranslation();
  const chatId = useAppStore((s) => s.chat.chatId);
  const chat = useAppStore((s) => s.chat.summary);
  const setWorkspace = useAppStore((s) => s.setWorkspace);
  const renameChat = useAppStore((s) => s.renameChat);
  const deleteChat = useAppStore((s) => s.deleteChat);
  const [editing, setEditing] = useState<'workspace' | 'title' | null>(null);
  const [draft, setDraft] = useState('');
  if (!chatId || !chat) return null;

  const start = (what: 'workspace' | 'title') => {
    setDraft(what === 'workspace' ? chat.workspace : chat.title);
    setEditing(what);
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const value = draft.trim();
    if (value) await (editing === 'workspace' ? setWorkspace(value) : renameChat(chatId, value));
    setEditing(null);
  };

  if (editing) {
    const label = editing === 'workspace' ? t('chat.workspaceFolder') : t('chat.chatTitle');
    return (
      <form className="chat-bar" onSubmit={(e) => void save(e)}>
        <label>
          {label} <input autoFocus value={draft} onChange={(e) => setDraft(e.target.value)} size={50} />
        </label>
        <button type="submit">{t('chat.save')}</button>
        <button type="button" onClick={() => setEditing(null)}>
          {t('chat.cancel')}
        </button>
      </form>
    );
  }
  return (
    <div className="chat-bar">
      <h2 className="chat-title">{chat.title}</h2>
      <button type="button" className="link-button" onClick={() => start('title')}>
        {t('chat.rename')}
      </button>
      <button
        type="button"
        className="link-button"
        disabled={chat.running}
        onClick={() => {
          if (window.confirm(t('chat.confirmDelete', { title: chat.title }))) void deleteChat(chatId);
        }}
      >
        {t('chat.delete')}
      </button>
      <ChatUsageTotal />
      <span className="spacer" />
      <ModelPicker chatId={chatId} model={chat.model} />
      <ReasoningPicker chatId={chatId} reasoning={chat.reasoning} />
      <span>{t('chat.workspace')}</span>
      <span className="workspace" title={chat.workspace}>
        {chat.workspace}
      </span>
      <button type="button" className="link-button" onClick={() => start('workspace')}>
        {t('chat.changeWorkspace')}
      </button>
    </div>
  );
}
