// TurnPersistence over the SQLite ChatStore.
import type { Redactor } from '../core/redactor';
import type { ChatStore, FinishStatus } from '../store';
import type { AssistantPart } from '../store/transcript';
import { StreamCheckpointer } from '../store';
import type { TurnPersistence } from './turn-persistence';
import { buildTranscript } from './transcript-builder';
import { scrubbedContent } from './scrub-content';

/** The turn engine's writes and reads, committed to `store`. */
export function storePersistence(store: ChatStore, redactor: Redactor): TurnPersistence {
  // Checkpoints redact when they write (throttled), so a long stream is not rescanned on every delta.
  const redactedMessages = {
    // A scrubbed thinking block loses its signature here too, so a message cut by a crash never sends it back.
    checkpoint: (id: number, content: AssistantPart[]) =>
      store.messages.checkpoint(id, scrubbedContent(content, redactor)),
    finish: (id: number, content: AssistantPart[], status: FinishStatus) =>
      store.messages.finish(id, scrubbedContent(content, redactor), status),
  };
  const carried = new Map<string, number[]>();
  const streaming = new Map<number, StreamCheckpointer>();
  return {
    appendUser: (chatId, content) => void store.messages.append(chatId, { role: 'user', content }),
    beginAssistant: (chatId) => {
      const id = store.messages.begin(chatId).id;
      streaming.set(id, new StreamCheckpointer(redactedMessages, id));
      return id;
    },
    checkpointAssistant: (id, content, now) => {
      const checkpointer = streaming.get(id);
      if (!checkpointer) return;
      checkpointer.update(content);
      if (now) checkpointer.flush();
    },
    finishAssistant: (id, content, status) => {
      const checkpointer = streaming.get(id);
      streaming.delete(id);
      if (checkpointer) checkpointer.finish(content, status);
      else redactedMessages.finish(id, content, status);
    },
    appendToolResults: (chatId, results) =>
      void store.messages.append(chatId, { role: 'tool_results', results }),
    transcript: (chatId) => {
      const stored = store.messages.list(chatId);
      carried.set(
        chatId,
        stored.flatMap((m) => (m.message.role === 'note' && !m.message.seen ? [m.id] : [])),
      );
      return buildTranscript(stored);
    },
    recordUsage: (entry) => store.usage.record(entry),
    markNotesSeen: (chatId) => {
      store.notes.markSeen(carried.get(chatId) ?? []);
      carried.delete(chatId);
    },
  };
}
