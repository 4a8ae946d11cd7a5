// The ChatPort of the fixed-set tools over the store: checklist, history and deliverables, each committed then announced.
import type { ChatPort, HistoryEntry } from '../../tools/sdk/chat-ports';
import type { ChatStore, StoredMessage } from '../store';
import type { TurnEvent } from './turn-events';

/** A ChatPort that writes to `store` and then emits the matching event. */
export function storeChatPort(store: ChatStore, emit: (event: TurnEvent) => void): ChatPort {
  return {
    setTodos(chatId, items) {
      store.todos.set(chatId, items);
      emit({ type: 'todo.updated', chatId, items });
    },
    getTodos: (chatId) => store.todos.get(chatId),
    history(chatId, { query, limit, offset }) {
      if (query) {
        // Messages match through the full-text index; tool actions by their text.
        const hits = new Set(store.search(query, { chatId, limit: 1000 }).map((hit) => hit.messageId));
        const needle = query.toLowerCase();
        return entries(store, chatId)
          .filter((e) => (e.kind === 'tool_call' ? e.text.toLowerCase().includes(needle) : hits.has(e.id)))
          .slice(offset, offset + limit);
      }
      return entries(store, chatId).slice(offset, offset + limit);
    },
    entry: (chatId, id) => entries(store, chatId).find((e) => e.id === id),
    publishResult(chatId, result) {
      store.notes.add(chatId, {
        text: `Result saved: ${result.title} (${result.path}, ${result.bytes} bytes)`,
      });
      emit({ type: 'result.published', chatId, result });
    },
  };
}

// Tool calls get ids after every message id so both kinds share one numbering in chat_history.
const CALL_ID_BASE = 1_000_000_000;

function entries(store: ChatStore, chatId: string): HistoryEntry[] {
  const messages = store.messages.list(chatId).flatMap((m) => messageEntry(m));
  const calls = store.toolCalls.list(chatId).map((c, i): HistoryEntry => ({
    id: CALL_ID_BASE + i,
    kind: 'tool_call',
    at: c.queuedAt,
    text: `${c.tool} ${c.args} → ${c.outcome ?? c.status}${c.code ? ` [${c.code}]` : ''}: ${c.result ?? ''}`,
  }));
  return [...messages, ...calls].sort((a, b) => a.at - b.at || a.id - b.id);
}

function messageEntry(row: StoredMessage): HistoryEntry[] {
  const message = row.message;
  switch (message.role) {
    case 'note':
      return [{ id: row.id, kind: 'note', at: row.createdAt, text: message.text }];
    case 'user':
      return [
        {
          id: row.id,
          kind: 'user',
          at: row.createdAt,
          text: message.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n'),
        },
      ];
    case 'assistant': {
      const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      return text ? [{ id: row.id, kind: 'assistant', at: row.createdAt, text }] : [];
    }
    case 'tool_results':
      return [];
  }
}
