// background_subagents: the subagents tool as a background task; its legs share the task's `timeout_min`.
import { TIMEOUT_MIN_PARAMETER, taskLimitFromArgs } from './background-limit';
import {
  anyCompleted,
  formatLegReports,
  parseLegTasks,
  requireSubagents,
  runLegs,
  TASKS_PARAMETER,
} from './subagent-legs';
import { defineTool, ToolError } from '../sdk/types';

/** The background_subagents built-in: background, gated, limited by the call's `timeout_min`. */
export const backgroundSubagentsTool = defineTool({
  name: 'background_subagents',
  description:
    'Start subtasks as a background task, each run by a subagent in its own chat; returns a task id.\n' +
    'Use when they run long and you go on meanwhile; subagents to wait for them.\n' +
    'Read them with check_task.',
  parameters: {
    type: 'object',
    properties: { tasks: TASKS_PARAMETER, timeout_min: TIMEOUT_MIN_PARAMETER },
    required: ['tasks'],
    additionalProperties: false,
  },
  flags: { background: true },
  taskLimitMs: taskLimitFromArgs,
  handler: async (args, ctx) => {
    const tasks = parseLegTasks(args.tasks);
    const port = requireSubagents(ctx);
    ctx.progress({
      message: `starting ${tasks.length} subagent(s): ${tasks.map((t) => t.title).join(', ')}`,
    });
    const reports = await runLegs(port, ctx, tasks);
    const text = formatLegReports(reports);
    if (!anyCompleted(reports)) throw new ToolError('subagents_failed', text, { legs: reports });
    return { content: [{ type: 'text', text }], data: { legs: reports } };
  },
});
