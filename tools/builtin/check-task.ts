// check_task: the model's view of its background tasks (docs/dispatch.md, "Background tasks"): one task in full, or the chat's list.
import { defineTool, ToolError } from '../sdk/types';
import { findChatTask, requireTasks, taskLine, taskReport } from './task-view';
import { optionalString } from '../sdk/workspace-path';
import { sleep } from '../sdk/values';

/** Longest wait_s: five minutes, so one call never holds a turn for long. */
export const MAX_WAIT_S = 300;

const POLL_MS = 250;

/** The check_task built-in: read-only, so alwaysAllow and concurrent. */
export const checkTaskTool = defineTool({
  name: 'check_task',
  description:
    'Show the status, elapsed time and limit, output tail and result of a background task of this chat.\n' +
    'Use to follow background_command or background_subagents; without task_id it lists every task.',
  parameters: {
    type: 'object',
    properties: {
      task_id: {
        type: 'string',
        default: '',
        description:
          'The id a background tool returned, e.g. "task_1a2b3c4d"; empty to list this chat\'s tasks.',
      },
      wait_s: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_WAIT_S,
        default: 0,
        description: `Seconds to wait for a running task to finish before answering, 0 to ${MAX_WAIT_S}, e.g. 30.`,
      },
    },
    additionalProperties: false,
  },
  flags: { alwaysAllow: true, concurrent: true },
  handler: async (args, ctx) => {
    const tasks = requireTasks(ctx);
    const id = optionalString(args.task_id, 'task_id');
    const waitS = args.wait_s ?? 0;
    if (typeof waitS !== 'number' || !Number.isInteger(waitS) || waitS < 0 || waitS > MAX_WAIT_S) {
      throw new ToolError('invalid_arguments', `\`wait_s\` must be an integer from 0 to ${MAX_WAIT_S}`, {
        parameter: 'wait_s',
      });
    }
    if (id === '') {
      const list = tasks.list({ chatId: ctx.chatId });
      const text = list.length === 0 ? 'no background tasks in this chat' : list.map(taskLine).join('\n');
      return { content: [{ type: 'text', text }], data: list };
    }
    let task = findChatTask(tasks, ctx, id);
    const until = Date.now() + waitS * 1000;
    while (task.status === 'running' && Date.now() < until) {
      await sleep(Math.min(POLL_MS, until - Date.now()), ctx.signal);
      task = tasks.get(id) ?? task;
    }
    return { content: [{ type: 'text', text: taskReport(task) }], data: task };
  },
});
