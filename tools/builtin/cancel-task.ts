// cancel_task: stops a background task of this chat. It changes state, so it goes through the gate.
import { defineTool } from '../sdk/types';
import { findChatTask, requireTasks, taskReport } from './task-view';
import { requiredString } from '../sdk/workspace-path';

// The task's process tree is killed within about a second (SIGTERM, 500 ms, SIGKILL); wait that long
// so the answer can say "cancelled" rather than "still stopping".
const SETTLE_MS = 2000;
const POLL_MS = 50;

/** The cancel_task built-in: gated, default limit. */
export const cancelTaskTool = defineTool({
  name: 'cancel_task',
  description:
    'Cancel a running background task of this chat and stop its processes or subagents.\n' +
    'Use when a task is stuck, no longer needed or was started by mistake; check_task to see its state.',
  parameters: {
    type: 'object',
    properties: {
      task_id: {
        type: 'string',
        minLength: 1,
        description:
          'The id of the task to cancel, as a background tool or check_task returned it, e.g. "task_1a2b3c4d".',
      },
    },
    required: ['task_id'],
    additionalProperties: false,
  },
  handler: async (args, ctx) => {
    const tasks = requireTasks(ctx);
    const id = requiredString(args.task_id, 'task_id', '"task_1a2b3c4d"');
    const before = findChatTask(tasks, ctx, id);
    if (before.status !== 'running' || !tasks.cancel(id)) {
      const finished = tasks.get(id) ?? before;
      return `task ${id} had already finished (${finished.status}); nothing to cancel\n${taskReport(finished)}`;
    }
    let task = tasks.get(id) ?? before;
    const until = Date.now() + SETTLE_MS;
    while (task.status === 'running' && Date.now() < until && !ctx.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      task = tasks.get(id) ?? task;
    }
    const head =
      task.status === 'running' ? `cancelling task ${id}; it is still stopping` : `cancelled task ${id}`;
    return { content: [{ type: 'text', text: `${head}\n${taskReport(task)}` }], data: task };
  },
});
