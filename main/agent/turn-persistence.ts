// What the turn engine commits, as a port: the SQLite store implements it (main/store), tests may use it in memory.
import type { RoundUsageRecord } from '../store/usage';
import type { AssistantPart, ToolResultPart, TranscriptMessage, UserPart } from '../store/transcript';

/** The writes and reads of one chat's transcript, each committed before it returns. */
export interface TurnPersistence {
  /** The user's message: the typed text first, then any attachments. */
  appendUser(chatId: string, content: UserPart[]): void;
  beginAssistant(chatId: string): number;
  /**
   * Saves streaming content at least every 250 ms while text flows; `now` saves at once (a complete tool call).
   * The content may hold raw text: the persistence redacts what it writes.
   */
  checkpointAssistant(messageId: number, content: AssistantPart[], now?: boolean): void;
  finishAssistant(
    messageId: number,
    content: AssistantPart[],
    status: 'complete' | 'cut' | 'cancelled',
  ): void;
  appendToolResults(chatId: string, results: ToolResultPart[]): void;
  /** The transcript to send: messages in order with unseen notes included, repaired so every call has a result. */
  transcript(chatId: string): TranscriptMessage[];
  /** Marks the notes included in the last transcript as seen. */
  markNotesSeen(chatId: string): void;
  /** Records one round's tokens and cost, keyed by its assistant message. */
  recordUsage(entry: RoundUsageRecord): void;
}
