// subagents: runs subtasks in child chats and waits for their answers (the SubagentPort, which the agent
// implements, gives each child chat every tool except subagents, background_*, ask_user and store_secret).
import {
  anyCompleted,
  formatLegReports,
  parseLegTasks,
  requireSubagents,
  runLegs,
  TASKS_PARAMETER,
} from './subagent-legs';
import { defineTool, ToolError } from '../sdk/types';

/** subagents' limit (docs/dispatch.md, "Limits of the built-in tools"): 30 minutes for the whole call, waiting legs included. */
export const SUBAGENTS_TIMEOUT_MS = 30 * 60 * 1000;

/** The subagents built-in: gated, 30 min; a failed leg is reported and the others still answer. */
export const subagentsTool = defineTool({
  name: 'subagents',
  description:
    'Run subtasks in parallel, each by a subagent in its own chat, and return their answers.\n' +
    'Use to split independent work; background_subagents to go on meanwhile.\n' +
    'At most 3 run at once, within 30 min.',
  parameters: {
    type: 'object',
    properties: { tasks: TASKS_PARAMETER },
    required: ['tasks'],
    additionalProperties: false,
  },
  timeoutMs: SUBAGENTS_TIMEOUT_MS,
  handler: async (args, ctx) => {
    const tasks = parseLegTasks(args.tasks);
    const reports = await runLegs(requireSubagents(ctx), ctx, tasks);
    const text = formatLegReports(reports);
    if (!anyCompleted(reports)) throw new ToolError('subagents_failed', text, { legs: reports });
    return { content: [{ type: 'text', text }], data: { legs: reports } };
  },
});
