// run_command: runs a shell command line in the workspace and waits for it, streaming its output.
// A non-zero exit is a normal result that states the exit code, not a tool error: the model reads the
// output of a failing build or test run to fix it, and "exit code 1" is part of that answer.
import {
  commandData,
  COMMAND_PARAMETERS,
  commandSandboxed,
  formatCommandRun,
  runToolCommand,
} from './command-runner';
import { defineTool } from '../sdk/types';

/** run_command's limit (docs/dispatch.md, "Limits of the built-in tools"): 30 minutes. */
export const RUN_COMMAND_TIMEOUT_MS = 30 * 60 * 1000;

/** The run_command built-in: gated, 30 min, output streamed as progress and capped at 1 MiB with a note. */
export const runCommandTool = defineTool({
  name: 'run_command',
  description:
    'Run a shell command in the workspace and return its exit code and output.\n' +
    'Use for builds, tests, git and scripts that finish within 30 min; background_command for longer ones.\n' +
    'Output is capped at 1 MiB.',
  parameters: {
    type: 'object',
    properties: { ...COMMAND_PARAMETERS },
    required: ['command'],
    additionalProperties: false,
  },
  timeoutMs: RUN_COMMAND_TIMEOUT_MS,
  sandboxed: commandSandboxed,
  handler: async (args, ctx) => {
    const run = await runToolCommand(args, ctx);
    return { content: [{ type: 'text', text: formatCommandRun(run) }], data: commandData(run) };
  },
});
