// The open chat's state: its messages, tool-call cards, live progress, checklist, deliverables and turn.
import type {
  ChatSnapshot,
  ChatSummary,
  MessageView,
  PendingApprovalView,
  ProgressView,
  ResultFile,
  TodoItem,
  ToolCallView,
} from '../../../preload/contract';

/** A running call's latest progress, with when it arrived so the card can keep counting between updates. */
export interface CallProgress {
  elapsedMs: number;
  /** Date.now() when the update arrived. */
  at: number;
  message: string | null;
  progress: number | null;
  total: number | null;
  /** The tail of the streamed output. */
  output: string;
}

/** Everything the chat view shows for the open chat. */
export interface ChatViewState {
  chatId: string | null;
  /** Title and workspace of the open chat (kept here: the list may be filtered by a search). */
  summary: ChatSummary | null;
  messages: MessageView[];
  calls: Record<string, ToolCallView>;
  progress: Record<string, CallProgress>;
  todos: TodoItem[];
  results: ResultFile[];
  pendingApprovals: PendingApprovalView[];
  /** Calls the model streamed that have no card yet (their ids may still change when they are queued). */
  draftCalls: string[];
  /**
   * Opened mid-stream: the snapshot's text is the last checkpoint, so deltas sent before this page subscribed are
   * missing. The chat is fetched again when that message ends.
   */
  staleStream: boolean;
  /** A turn is in flight in this chat. */
  running: boolean;
  /** The last turn's failure, shown under the messages until the next turn. */
  turnError: string | null;
}

/** No chat open. */
export const emptyChat: ChatViewState = {
  chatId: null,
  summary: null,
  messages: [],
  calls: {},
  progress: {},
  todos: [],
  results: [],
  pendingApprovals: [],
  draftCalls: [],
  staleStream: false,
  running: false,
  turnError: null,
};

/** The view of a freshly opened chat. */
export function chatFromSnapshot(snapshot: ChatSnapshot): ChatViewState {
  const calls: Record<string, ToolCallView> = {};
  for (const call of snapshot.toolCalls) calls[call.callId] = call;
  return {
    chatId: snapshot.chat.id,
    summary: snapshot.chat,
    messages: snapshot.messages,
    calls,
    progress: {},
    todos: snapshot.todos,
    results: snapshot.results,
    pendingApprovals: snapshot.pendingApprovals,
    draftCalls: [],
    staleStream: snapshot.messages.some((m) => m.status === 'streaming'),
    running: snapshot.chat.running,
    turnError: null,
  };
}

/** Keeps this many characters of a call's live output. */
export const OUTPUT_TAIL_CHARS = 4000;

/** Progress after one more update. */
export function nextProgress(
  previous: CallProgress | undefined,
  elapsedMs: number,
  update: ProgressView,
  now: number,
): CallProgress {
  const output = update.output
    ? ((previous?.output ?? '') + update.output).slice(-OUTPUT_TAIL_CHARS)
    : (previous?.output ?? '');
  return {
    elapsedMs,
    at: now,
    message: update.message ?? previous?.message ?? null,
    progress: update.progress ?? previous?.progress ?? null,
    total: update.total ?? previous?.total ?? null,
    output,
  };
}
