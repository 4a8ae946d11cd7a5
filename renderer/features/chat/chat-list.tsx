// The sidebar: New chat, a search box over titles and message text, and the chats, most recent first.
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import { SearchHits } from './search-hits';
import { ariaShortcut, shortcutText } from '../../app/shortcuts';

// Typing waits this long before asking main, so each keystroke does not search.
const SEARCH_DELAY_MS = 200;

/** The chat list with search and New chat. */
export function ChatList() {
  const { t } = useTranslation();
  const chats = useAppStore((s) => s.chats);
  const activeId = useAppStore((s) => s.chat.chatId);
  const openChat = useAppStore((s) => s.openChat);
  const createChat = useAppStore((s) => s.createChat);
  const searchChats = useAppStore((s) => s.searchChats);
  const setView = useAppStore((s) => s.setView);
  const [query, setQuery] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => void searchChats(query), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, searchChats]);

  return (
    <nav className="sidebar" aria-label={t('chats.label')}>
      <button
        type="button"
        className="primary"
        aria-keyshortcuts={ariaShortcut('newChat')}
        title={shortcutText('newChat')}
        onClick={() => void createChat()}
      >
        {t('chats.newChat')}
      </button>
      <input
        type="search"
        aria-label={t('chats.search')}
        placeholder={t('chats.search')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <ul className="chat-list">
        {chats.map((chat) => (
          <li key={chat.id}>
            <button
              type="button"
              aria-current={chat.id === activeId}
              className={chat.running ? 'running' : undefined}
              title={`${chat.title}\n${chat.workspace}`}
              onClick={() => {
                setView('chat');
                if (chat.id !== activeId) void openChat(chat.id);
              }}
            >
              {chat.title}
            </button>
          </li>
        ))}
        {chats.length === 0 && <li className="muted">{query ? t('chats.noMatch') : t('chats.none')}</li>}
      </ul>
      {query.trim() && <SearchHits />}
    </nav>
  );
}
