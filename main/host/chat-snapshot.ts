// Everything needed to show one chat, read from the store in one go (open, reconnect, reload).
import type {
  ChatSnapshot,
  ChatSummary,
  MessageView,
  ResultFile,
  RoundUsageView,
} from '../../preload/contract';
import type { ChatRecord, ChatStore } from '../store';
import { snapshotCards } from './card-text';
import { snapshotMessages } from './message-text';
import { messageView, resultFromNote } from './message-views';
import { shownResult, shownTodos } from './shown-text';
import { taskItem } from './views';

/** A chat in the list, with whether a turn runs. */
export function chatSummary(chat: ChatRecord, running: boolean): ChatSummary {
  return {
    id: chat.id,
    title: chat.title,
    workspace: chat.workspace,
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
    running,
    reasoning: chat.reasoning,
    model: chat.model,
  };
}

/** Each answer's round usage in `chatId`, by message id. */
export function roundUsages(store: ChatStore, chatId: string): Map<number, RoundUsageView> {
  return new Map(
    store.usage
      .list(chatId)
      .map((u) => [u.messageId, { model: u.model, usage: u.usage, costUsd: u.costUsd }]),
  );
}

/** The snapshot of `chat`. */
export function chatSnapshot(store: ChatStore, chat: ChatRecord, running: boolean): ChatSnapshot {
  const rows = store.messages.list(chat.id);
  const usage = roundUsages(store, chat.id);
  const messages: MessageView[] = [];
  const results: ResultFile[] = [];
  for (const row of rows) {
    const view = messageView(row, usage.get(row.id) ?? null);
    if (view) messages.push(view);
    const result = resultFromNote(row);
    if (result) results.push(shownResult(result));
  }
  const approvals = new Map(store.approvals.list(chat.id).map((record) => [record.callId, record]));
  const calls = store.toolCalls.list(chat.id);
  const queued = new Set(calls.filter((call) => call.status === 'queued').map((call) => call.callId));
  return {
    chat: chatSummary(chat, running),
    messages: snapshotMessages(messages),
    toolCalls: snapshotCards(calls, approvals),
    todos: shownTodos(store.todos.get(chat.id)),
    results,
    // A request left undecided by a crash belongs to an interrupted call: only queued calls still wait.
    pendingApprovals: [...approvals.values()]
      .filter((record) => record.decision === null && queued.has(record.callId))
      .map((record) => ({ callId: record.callId, tool: record.tool, requestedAt: record.requestedAt })),
    tasks: store.tasks.list({ chatId: chat.id }).map((task) => taskItem(task, task.chatId)),
  };
}
