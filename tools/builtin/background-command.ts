// background_command: starts a command as a background task and returns its id at once (the dispatcher
// starts every background tool as a task). The handler runs inside the task: its streamed output becomes
// the task's output tail, and a non-zero exit fails the task, so the task list shows what went wrong.
import { TIMEOUT_MIN_PARAMETER, taskLimitFromArgs } from './background-limit';
import {
  commandData,
  COMMAND_PARAMETERS,
  commandSandboxed,
  describeExit,
  formatCommandRun,
  runToolCommand,
} from './command-runner';
import { defineTool, ToolError } from '../sdk/types';

/** The background_command built-in: background, gated, limited by the call's `timeout_min`. */
export const backgroundCommandTool = defineTool({
  name: 'background_command',
  description:
    'Start a shell command in the workspace as a background task and return its task id at once.\n' +
    'Use for servers, watchers and long jobs; run_command when you need the output now.\n' +
    'Follow it with check_task.',
  parameters: {
    type: 'object',
    properties: { ...COMMAND_PARAMETERS, timeout_min: TIMEOUT_MIN_PARAMETER },
    required: ['command'],
    additionalProperties: false,
  },
  flags: { background: true },
  taskLimitMs: taskLimitFromArgs,
  sandboxed: commandSandboxed,
  handler: async (args, ctx) => {
    const run = await runToolCommand(args, ctx);
    const text = formatCommandRun(run);
    if (run.result.exitCode !== 0) {
      throw new ToolError('command_failed', text, { ...commandData(run), summary: describeExit(run.result) });
    }
    return { content: [{ type: 'text', text }], data: commandData(run) };
  },
});
