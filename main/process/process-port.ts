// The core side of tools/sdk/process-port: runs tool commands with runInGroup under the core's
// ProcessGroups (so quitting and crash recovery see them), inside the OS sandbox when the request asks for
// one (docs/security.md), with the allow-listed environment only; and launches detached viewers.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  ProcessLaunchRequest,
  ProcessLaunchResult,
  ProcessPort,
  ProcessRunRequest,
  ProcessRunResult,
} from '../../tools/sdk/process-port';
import { ToolError } from '../../tools/sdk/types';
import { quoteArgv } from '../../tools/sdk/shell/quote';
import { childEnvironment } from '../core/child-env';
import type { KillOptions } from './process-group-kill';
import { killGroup } from './process-group-kill';
import { runInGroup } from './process-group-run';
import type { ProcessGroups } from './process-group-tracker';
import type { CommandSandbox, WrappedCommand } from '../core/sandbox-port';

/** How long launch watches a program for an early failure by default. */
export const LAUNCH_SETTLE_MS = 1000;

/** How much of a launched program's stderr is kept for an early-failure message. */
const LAUNCH_STDERR_BYTES = 4096;

/** What running a tool's process needs from the core. */
export interface ToolProcessDeps {
  /** Where every live group is tracked (for quit and crash recovery). */
  groups: ProcessGroups;
  /** The OS sandbox; null runs every process unconfined. */
  sandbox: CommandSandbox | null;
  /** The environment the allow-list is taken from (default: process.env at call time). */
  parentEnv?: () => NodeJS.ProcessEnv;
  kill?: KillOptions;
}

/** The process port over runInGroup; every command it runs is tracked in `groups` and confined by `sandbox`. */
export function processPort(groups: ProcessGroups, sandbox: CommandSandbox | null = null): ProcessPort {
  return {
    run: (request) => runToolProcess(request, { groups, sandbox }),
    launch: (request) => launchDetached(request),
  };
}

/**
 * Runs one tool process to its end: in the sandbox when the request asks for one and it can start here (a wrap
 * that fails is an error, never an unconfined run), with the allow-listed environment, in its own tracked group.
 */
export async function runToolProcess(
  request: ProcessRunRequest,
  deps: ToolProcessDeps,
): Promise<ProcessRunResult> {
  const { groups, sandbox } = deps;
  const env = childEnvironment(deps.parentEnv?.() ?? process.env, request.env);
  const confined = request.confinement !== null && (await sandbox?.state())?.kind === 'ready';
  let wrapped: WrappedCommand | null = null;
  if (confined && sandbox && request.confinement) {
    const line = request.shell ? request.command : quoteArgv([request.command, ...(request.args ?? [])]);
    wrapped = await sandbox
      .wrap({
        line,
        cwd: request.cwd,
        env,
        confinement: request.confinement,
        runId: randomUUID(),
        signal: request.signal,
      })
      .catch((error: unknown) => {
        if (request.signal.aborted) throw request.signal.reason;
        // Never fall back to running unconfined: the approval was given for a sandboxed run.
        const message = error instanceof Error ? error.message : String(error);
        throw new ToolError('sandbox_failed', `the OS sandbox could not start this command: ${message}`);
      });
  }
  const [command, args] = wrapped
    ? [wrapped.command, wrapped.args]
    : request.shell
      ? shellCommand(request.command)
      : [request.command, [...(request.args ?? [])]];
  const { onOutput } = request;
  try {
    const result = await runInGroup({
      command,
      args,
      cwd: request.cwd,
      env: wrapped ? wrapped.env : env,
      input: request.input,
      signal: request.signal,
      maxOutputBytes: request.maxOutputBytes,
      onOutput: onOutput ? (stream, text) => onOutput(text, stream) : undefined,
      groups,
      kill: deps.kill,
      // Only the sandbox ends whatever a confined run left in a session of its own; an unconfined one is swept.
      sweepOnExit: wrapped === null,
    });
    return {
      exitCode: result.exitCode,
      signal: result.signal,
      stdout: result.stdout,
      stderr: result.stderr,
      truncated: result.truncated,
      durationMs: result.durationMs,
      sandbox: {
        confined: wrapped !== null,
        blocked: wrapped ? wrapped.blocked(result.stderr) : [],
        warnings: wrapped ? await wrapped.review() : [],
      },
    };
  } finally {
    await wrapped?.release();
  }
}

function shellCommand(line: string): [string, string[]] {
  if (process.platform === 'win32') return [process.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', line]];
  return ['/bin/sh', ['-c', line]];
}

// Detached (own session) and untracked: the viewer must outlive the call and the app. Its stderr goes to
// an unlinked temp file rather than a pipe, so a viewer that writes warnings later never hits a closed pipe.
async function launchDetached(request: ProcessLaunchRequest): Promise<ProcessLaunchResult> {
  const { signal } = request;
  if (signal.aborted) throw signal.reason;
  const errFile = path.join(os.tmpdir(), `agenvoy-launch-${randomUUID()}.log`);
  const errFd = fs.openSync(errFile, 'w', 0o600);
  const cleanup = () => fs.rmSync(errFile, { force: true });
  let child;
  try {
    child = spawn(request.command, [...request.args], {
      cwd: request.cwd,
      detached: true,
      ...(request.env ? { env: { ...process.env, ...request.env } } : {}),
      stdio: ['ignore', 'ignore', errFd],
      windowsHide: false,
    });
  } catch (error) {
    cleanup();
    throw error;
  } finally {
    fs.closeSync(errFd);
  }
  const launched = child;
  try {
    await new Promise<void>((resolve, reject) => {
      launched.once('spawn', resolve);
      launched.once('error', reject);
    });
  } catch (error) {
    cleanup();
    throw error;
  }
  const pid = launched.pid as number;
  const exited = new Promise<ProcessLaunchResult>((resolve) =>
    launched.once('exit', (exitCode, exitSignal) =>
      resolve({ state: 'exited', exitCode, signal: exitSignal, stderr: readHead(errFile) }),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const settled = new Promise<ProcessLaunchResult>((resolve) => {
    timer = setTimeout(() => resolve({ state: 'running', pid }), request.settleMs ?? LAUNCH_SETTLE_MS);
  });
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const result = await Promise.race([exited, settled, aborted]);
    // An abort wins over an exit it caused: kill what is left of the group, then settle with the reason.
    if (signal.aborted || result === undefined) {
      await killGroup(pid).catch(() => false);
      throw signal.reason;
    }
    return result;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    launched.unref();
    cleanup();
  }
}

function readHead(file: string): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(LAUNCH_STDERR_BYTES);
      const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
      return buffer.subarray(0, read).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}
