// Commits core events (tool calls, approvals, tasks, process groups, loaded schemas) to the store before they are shown.
import { randomBytes } from 'node:crypto';
import type { TaskView } from '../../tools/sdk/types';
import type { ChatCore } from './chat-core';
import type { CallEvent } from '../core/dispatcher';
import { killLeftoverGroups } from '../process/process-group';
import type { ChatStore } from '../store';
import type { TurnEvent } from './turn-events';

/** Persists what the core does for chats, then forwards each event to `emit`; returns the undo. */
export function persistCoreEvents(
  core: ChatCore,
  store: ChatStore,
  emit: (event: TurnEvent) => void,
): () => void {
  const safely = (what: string, write: () => void) => {
    try {
      write();
    } catch (error) {
      core.log.warn('could not record event', { what, error: (error as Error).message });
    }
  };
  const unsubscribers = [
    core.dispatcher.on((event: CallEvent) => {
      if (store.chats.get(event.chatId)) safely(event.type, () => recordCall(store, event, core));
      emit(event);
    }),
    core.tasks.onChange((task) => {
      // An ended task's row and the note that tells the model commit together: a failed note write (a full disk)
      // between them left the task recorded as ended and the model never told; now the row still says running, and
      // recovery after a restart tells it (docs/robustness.md, "Crash recovery"; task-note-crash-attack.test.ts).
      safely(task.status === 'running' ? 'task' : 'task and note', () =>
        store.transaction(() => {
          store.tasks.upsert(task);
          if (task.status !== 'running')
            store.notes.add(task.chatId, { text: taskNote(task), taskId: task.id });
        }),
      );
      emit({ type: 'task.updated', chatId: task.chatId, task });
    }),
    core.groups.onChange((change) => {
      if (change.type === 'added') safely('group', () => store.processGroups.record(change.group));
      else safely('group', () => void store.processGroups.remove(change.group.pgid));
    }),
  ];
  return () => unsubscribers.forEach((off) => off());
}

/** Start-up recovery: marks leftovers interrupted and kills the process groups a crashed run left behind. */
export async function recoverFromCrash(
  store: ChatStore,
  core: ChatCore,
): Promise<{ tasks: number; groupsKilled: number }> {
  const recovery = store.recover();
  const results = await killLeftoverGroups(recovery.processGroups);
  for (const group of recovery.processGroups) store.processGroups.remove(group.pgid);
  const killed = results.filter((r) => r.outcome === 'killed').length;
  if (recovery.tasks.length > 0 || killed > 0) {
    core.log.warn('recovered from an unclean shutdown', {
      tasks: recovery.tasks.length,
      groupsKilled: killed,
    });
  }
  for (const task of recovery.tasks) {
    store.notes.add(task.chatId, {
      text: `Background task ${task.id} (${task.tool}) was interrupted when the app stopped.`,
      taskId: task.id,
    });
  }
  return { tasks: recovery.tasks.length, groupsKilled: killed };
}

function recordCall(store: ChatStore, event: CallEvent, core: ChatCore): void {
  switch (event.type) {
    case 'call.queued':
      store.toolCalls.queued({
        chatId: event.chatId,
        callId: event.callId,
        tool: event.tool,
        source: core.registry.get(event.tool)?.spec.source ?? { kind: 'builtin' },
        args: JSON.stringify(event.args),
      });
      break;
    case 'call.approval':
      break;
    case 'call.started':
      store.toolCalls.started(event.chatId, event.callId, {
        limitMs: event.limitMs,
        startedAt: event.startedAt,
      });
      break;
    case 'call.progress':
      break;
    case 'call.finished':
      store.toolCalls.finished(event.chatId, event.callId, event.outcome);
      break;
  }
}

function taskNote(task: TaskView): string {
  const head = `Background task ${task.id} (${task.tool}: ${task.summary}) ended: ${task.status}.`;
  const result = task.result ?? task.error ?? '';
  if (!result) return head;
  const body = result.length > 4000 ? result.slice(-4000) : result;
  // The note reaches the model in a user message: the task's output (a command's, a page's words in a subagent's
  // answer) is fenced with a boundary it cannot know, and named, so lines in it shaped as the app's notes or the
  // person's words are read as the tool's output (docs/security.md, "What the model reads").
  let nonce = randomBytes(8).toString('hex');
  while (body.includes(nonce)) nonce = randomBytes(8).toString('hex');
  return (
    `${head}\nIts output follows between the two ${nonce} lines; it comes from the tool, not from the user or the app:\n` +
    `<<<output ${nonce}>>>\n${body}\n<<<end of output ${nonce}>>>`
  );
}
