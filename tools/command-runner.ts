// What run_command and background_command share: their parameters, running the command line through the
// process port with streamed output, and the result the model reads.
import fs from 'node:fs/promises';
import { OutputProgress } from './output-progress';
import type { ProcessPort, ProcessRunResult } from './process-port';
import type { JsonSchema, ToolContext } from './types';
import { ToolError } from './types';
import { insideWorkspace, optionalString, requiredString } from './workspace-path';

/** Total output a command result keeps: 1 MiB (SPEC §4). */
export const COMMAND_OUTPUT_BYTES = 1024 * 1024;

// Each stream gets half, so stdout and stderr together stay within the cap and both keep head and tail.
const STREAM_OUTPUT_BYTES = COMMAND_OUTPUT_BYTES / 2;

/** The `command` and `cwd` parameters both command tools take. */
export const COMMAND_PARAMETERS: Record<string, JsonSchema> = {
  command: {
    type: 'string',
    minLength: 1,
    description:
      'The command line, run by /bin/sh -c with stdin closed, so pipes, && and globs work, ' +
      'e.g. "npm test 2>&1 | tail -n 50". Interactive prompts get end of input.',
  },
  cwd: {
    type: 'string',
    default: '',
    description:
      'Working directory relative to the workspace, e.g. "packages/app"; empty for the workspace itself. ' +
      'It must exist and stay inside the workspace.',
  },
};

/** A finished command with where it ran. */
export interface CommandRun {
  command: string;
  cwd: string;
  result: ProcessRunResult;
}

/** The process port, or a clear error in a host that cannot run commands. */
export function requireProcesses(ctx: ToolContext): ProcessPort {
  const port = ctx.services.processes;
  if (!port)
    throw new ToolError('unavailable', 'this host cannot start processes, so commands cannot run here');
  return port;
}

/** Validates `command` and `cwd`, runs the line in the workspace and streams its output as progress. */
export async function runToolCommand(args: Record<string, unknown>, ctx: ToolContext): Promise<CommandRun> {
  const command = requiredString(args.command, 'command', '"ls -la"');
  const cwd = insideWorkspace(ctx.workspace, optionalString(args.cwd, 'cwd'), 'cwd');
  const isDirectory = await fs.stat(cwd).then(
    (stat) => stat.isDirectory(),
    () => false,
  );
  if (!isDirectory) {
    throw new ToolError('invalid_arguments', `\`cwd\` is not an existing directory: ${cwd}`, {
      parameter: 'cwd',
    });
  }
  const port = requireProcesses(ctx);
  const output = new OutputProgress((update) => ctx.progress(update));
  try {
    const result = await port.run({
      command,
      shell: true,
      cwd,
      signal: ctx.signal,
      maxOutputBytes: STREAM_OUTPUT_BYTES,
      onOutput: (chunk) => output.push(chunk),
    });
    return { command, cwd, result };
  } catch (error) {
    // An abort settles with the signal's reason (timeout or cancel), which the dispatcher classifies.
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError('start_failed', `the command could not start: ${message}`);
  } finally {
    output.flush();
  }
}

/** "exit code 0" / "exit code 2 (failed)" / "killed by SIGKILL", with the duration. */
export function describeExit(result: ProcessRunResult): string {
  const seconds = `${Number((result.durationMs / 1000).toFixed(1))} s`;
  if (result.exitCode === null) return `killed by ${result.signal ?? 'a signal'} after ${seconds}`;
  return `exit code ${result.exitCode}${result.exitCode === 0 ? '' : ' (failed)'} after ${seconds}`;
}

/** The text the model reads: how it ended, then stdout and stderr (empty ones left out). */
export function formatCommandRun(run: CommandRun): string {
  const { result } = run;
  const parts = [`${describeExit(result)} in ${run.cwd}`];
  const stdout = result.stdout.replace(/\r?\n$/, '');
  const stderr = result.stderr.replace(/\r?\n$/, '');
  if (stdout) parts.push(`stdout:\n${stdout}`);
  if (stderr) parts.push(`stderr:\n${stderr}`);
  if (!stdout && !stderr) parts.push('(no output)');
  return parts.join('\n');
}

/** The structured part of a command result. */
export function commandData(run: CommandRun): Record<string, unknown> {
  const { result } = run;
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    durationMs: result.durationMs,
    truncated: result.truncated,
    cwd: run.cwd,
  };
}
