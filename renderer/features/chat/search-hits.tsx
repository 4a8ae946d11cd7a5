// Full-text matches of the chat search: the chat, the role and the snippet with the matched words marked.
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import { shownProse } from './hidden-characters';

/** The message matches for the current search. */
export function SearchHits() {
  const { t } = useTranslation();
  const hits = useAppStore((s) => s.searchHits);
  const openChat = useAppStore((s) => s.openChat);
  const setView = useAppStore((s) => s.setView);
  return (
    <section className="search-hits" aria-label={t('chats.searchResults')}>
      <h2>{t('chats.inMessages')}</h2>
      {hits.length === 0 && <p className="muted">{t('chats.noMessageMatch')}</p>}
      <ul>
        {hits.map((hit) => (
          <li key={`${hit.chatId}:${hit.messageId}`}>
            <button
              type="button"
              onClick={() => {
                setView('chat');
                void openChat(hit.chatId);
              }}
            >
              <span className="hit-chat">{hit.chatTitle}</span>
              <span className="hit-snippet">{marked(shownProse(hit.snippet))}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

// Main marks matches «like this»; they become <mark> elements (never HTML from a string). Bidi controls a model
// wrote are shown as escapes, as in the chat itself (hidden-characters.ts).
function marked(snippet: string) {
  return snippet
    .split(/(«[^»]*»)/)
    .map((piece, i) => (piece.startsWith('«') ? <mark key={i}>{piece.slice(1, -1)}</mark> : piece));
}
