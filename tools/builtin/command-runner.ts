// What run_command and background_command share: their parameters, running the command line through the
// process port with streamed output, and the result the model reads.
import fs from 'node:fs/promises';
import { protectDefaultRuleCommand } from '../sdk/git-protection';
import { OutputProgress } from './output-progress';
import type { Confinement, ProcessPort, ProcessRunResult } from '../sdk/process-port';
import { boundedSandboxList, SANDBOX_NOTES_BYTES } from '../sdk/process-port';
import type { CallApproval, JsonSchema, ToolContext } from '../sdk/types';
import { ToolError } from '../sdk/types';
import { insideWorkspace, optionalString, requiredString } from '../sdk/workspace-path';

/** Total output a command result keeps: 1 MiB (docs/dispatch.md, "Output caps"). */
export const COMMAND_OUTPUT_BYTES = 1024 * 1024;

// Room for what frames the streams (the exit line with the cwd, the labels, a sandbox note) and for each stream's
// truncation note: the whole result stays within COMMAND_OUTPUT_BYTES, so no later cap cuts it again and each
// stream gets exactly one note.
const FRAME_BYTES = 8 * 1024 + SANDBOX_NOTES_BYTES;
const NOTE_BYTES = 64;

// Each stream gets half of the rest, so both keep head and tail.
const STREAM_OUTPUT_BYTES = (COMMAND_OUTPUT_BYTES - FRAME_BYTES) / 2 - NOTE_BYTES;

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
  sandbox: {
    type: 'boolean',
    default: true,
    description:
      'true runs the command in the OS sandbox: it writes only in the workspace and a temp folder, cannot read ' +
      'secret locations (~/.ssh, ~/.aws…) and reaches only public hosts. false runs it unconfined, which the user ' +
      'must approve for this one call; needed for SSH (git push over ssh) or reading a protected location.',
  },
};

/** Whether a command call runs in the sandbox: unless it asked for `sandbox: false`. */
export function commandSandboxed(args: Record<string, unknown>): boolean {
  return args.sandbox !== false;
}

/**
 * The sandbox of one command (docs/security.md): the workspace is writable; the network goes through the proxy
 * only when a person approved this call (now or for this chat): a rule or a blanket policy allows no network.
 */
export function commandConfinement(workspace: string, approval: CallApproval): Confinement {
  const personal = approval.by === 'person' || approval.by === 'chat_grant';
  return { workspace, writable: [workspace], network: personal ? 'proxy' : 'none' };
}

/** A finished command with where it ran. */
export interface CommandRun {
  command: string;
  cwd: string;
  /** Whether the call asked for the sandbox (it did unless `sandbox: false`). */
  sandboxed: boolean;
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
  const workspace = await fs.realpath(ctx.workspace).catch(() => {
    throw new ToolError('invalid_arguments', `the workspace does not exist: ${ctx.workspace}`);
  });
  const cwd = await realDirectory(insideWorkspace(workspace, optionalString(args.cwd, 'cwd'), 'cwd'));
  // A symlink inside the workspace must not carry the command out of it.
  insideWorkspace(workspace, cwd, 'cwd');
  const port = requireProcesses(ctx);
  // A default read-only rule allowed it: exactly the approved argv runs, git with a second layer of protections
  // (docs/security.md).
  const byDefault = ctx.approval.ruleOrigin === 'default';
  const guarded = byDefault ? await protectDefaultRuleCommand(command, cwd) : null;
  if (byDefault && !guarded)
    throw new ToolError(
      'invalid_arguments',
      'the command line no longer reads as the one command that was approved',
    );
  // Live output goes through the stream redactor: a key printed slowly never shows one character at a time.
  const output = new OutputProgress((update) => ctx.progress(update), ctx.services.redaction);
  try {
    const result = await port.run({
      command: guarded?.command ?? command,
      ...(guarded && Object.keys(guarded.env).length > 0 ? { env: guarded.env } : {}),
      shell: true,
      cwd,
      signal: ctx.signal,
      confinement: commandSandboxed(args) ? commandConfinement(workspace, ctx.approval) : null,
      maxOutputBytes: STREAM_OUTPUT_BYTES,
      onOutput: (chunk) => output.push(chunk),
    });
    return { command, cwd, sandboxed: commandSandboxed(args), result };
  } catch (error) {
    // An abort settles with the signal's reason (timeout or cancel), which the dispatcher classifies.
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError('start_failed', `the command could not start: ${message}`);
  } finally {
    output.end();
  }
}

async function realDirectory(dir: string): Promise<string> {
  const real = await fs.realpath(dir).catch(() => null);
  const isDirectory =
    real !== null &&
    (await fs.stat(real).then(
      (stat) => stat.isDirectory(),
      () => false,
    ));
  if (!isDirectory || real === null) {
    throw new ToolError('invalid_arguments', `\`cwd\` is not an existing directory: ${dir}`, {
      parameter: 'cwd',
    });
  }
  return real;
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
  const note = sandboxNote(result, run.sandboxed);
  if (note) parts.push(note);
  return parts.join('\n');
}

/** What the model must know about the sandbox: what it refused, and that `sandbox: false` is the way out. */
export function sandboxNote(result: ProcessRunResult, asked: boolean): string | null {
  if (!result.sandbox.confined)
    return asked ? 'note: no OS sandbox can start on this machine, so this command ran unconfined' : null;
  const notes: string[] = [];
  if (result.sandbox.blocked.length > 0) {
    notes.push(
      `sandbox: the OS sandbox blocked ${boundedSandboxList(result.sandbox.blocked)}. ` +
        'Work inside the workspace, or call again with "sandbox": false to ask the user to run it unconfined.',
    );
  }
  if (result.sandbox.warnings.length > 0)
    notes.push(`sandbox: ${boundedSandboxList(result.sandbox.warnings)}`);
  return notes.length > 0 ? notes.join('\n') : null;
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
    sandboxed: result.sandbox.confined,
    blocked: result.sandbox.blocked,
  };
}
