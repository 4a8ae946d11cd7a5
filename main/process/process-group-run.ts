// Runs a command in its own process group and settles only once the whole tree is gone: the one way
// script tools, run_command and background_command start children.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { KillOptions } from './process-group-kill';
import { groupAlive, killGroup, killMarked, RUN_MARK_ENV } from './process-group-kill';
import { CappedOutput, MAX_OUTPUT_BYTES } from './process-group-output';
import type { ProcessGroups } from './process-group-tracker';
import { groupRecord } from './process-group-tracker';

/** How long to wait for stdout/stderr to close once the group is gone (a process that left the group with setsid may hold them). */
const STREAM_CLOSE_WAIT_MS = 250;

/** What to run and how. */
export interface RunInGroupOptions {
  command: string;
  args?: readonly string[];
  cwd?: string;
  /** The child's whole environment (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  input?: string | Uint8Array;
  /** Aborting kills the tree; the promise then rejects with `signal.reason` once the tree is gone. */
  signal?: AbortSignal;
  /** Cap per stream (default 1 MiB); the rest is cut from the middle with a note. */
  maxOutputBytes?: number;
  /** Every decoded chunk as it arrives (for live tails); never capped. */
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /** Called once the child runs, with its group id. */
  onSpawn?: (pgid: number) => void;
  /** Where the live group is tracked (for quit and crash recovery). */
  groups?: ProcessGroups;
  /** Kill schedule (default SIGTERM, 500 ms, SIGKILL). */
  kill?: KillOptions;
  /**
   * Also after a normal end, kill what carries the run's mark outside the group (a helper started with setsid or a
   * double fork): for unconfined runs, which have no sandbox to end with. It costs a pass over /proc (a few ms).
   */
  sweepOnExit?: boolean;
}

/** How a command ended. */
export interface RunInGroupResult {
  pgid: number;
  exitCode: number | null;
  /** The signal that ended the leader, if any. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Bytes each stream produced in all, including what was cut. */
  stdoutBytes: number;
  stderrBytes: number;
  /** Whether either stream was cut. */
  truncated: boolean;
  durationMs: number;
}

/** Thrown (as the abort reason) for groups killed by `ProcessGroups.killAll`. */
export class ProcessKilledError extends Error {
  constructor(message = 'process group killed: the app is quitting') {
    super(message);
    this.name = 'AbortError';
  }
}

/**
 * Runs `command` in a new process group (detached, i.e. setsid). When the leader exits, whatever it
 * left running in its group is killed too, so the promise never waits on an orphan holding a pipe.
 */
export function runInGroup(options: RunInGroupOptions): Promise<RunInGroupResult> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (options.cwd !== undefined && !isDirectory(options.cwd)) {
    return Promise.reject(new Error(`working directory does not exist: ${options.cwd}`));
  }
  const started = Date.now();
  // Every process of this run inherits the mark, so a cancel or a time-out also finds those that left the group.
  const mark = randomUUID();
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(options.command, options.args ?? [], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), [RUN_MARK_ENV]: mark },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    return Promise.reject(error);
  }
  const pgid = child.pid;
  // Without a pid the spawn failed (ENOENT, EACCES): 'error' says why.
  if (pgid === undefined) return new Promise((_resolve, reject) => child.once('error', reject));
  child.on('error', () => {});

  const cap = options.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  const output = { stdout: new CappedOutput(cap), stderr: new CappedOutput(cap) };
  const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  for (const name of ['stdout', 'stderr'] as const) {
    child[name].on('data', (chunk: Buffer) => {
      output[name].push(chunk);
      if (options.onOutput) deliver(options.onOutput, name, decoders[name].write(chunk));
    });
  }
  // The child may exit without reading its input: EPIPE on stdin is not an error of ours.
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, exitSignal) => resolve({ code, signal: exitSignal })),
  );
  const streamsClosed = Promise.all([closed(child.stdout), closed(child.stderr)]);

  let abortReason: unknown = undefined;
  let killing: Promise<boolean> | null = null;
  const killTree = (reason: unknown): Promise<boolean> => {
    abortReason ??= reason;
    // The group first (SIGTERM, grace, SIGKILL), then whatever carries the run's mark outside it.
    killing ??= killGroup(pgid, options.kill).then(
      async (gone) => (await killMarked(mark, options.kill)) && gone,
    );
    return killing;
  };
  const onAbort = (): void => void killTree(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });

  let settle = (): void => {};
  const done = new Promise<void>((resolve) => (settle = resolve));
  const untrack = options.groups?.add(
    groupRecord(pgid, [options.command, ...(options.args ?? [])].join(' '), mark),
    () => {
      void killTree(new ProcessKilledError());
      return done;
    },
  );
  options.onSpawn?.(pgid);

  return (async () => {
    try {
      const exit = await exited;
      // Whatever the leader left behind in its group dies with it.
      if (killing || groupAlive(pgid)) await killTree(abortReason);
      // One that left the group lives on past an empty group unless the mark finds it (docs/dispatch.md).
      else if (options.sweepOnExit) await killMarked(mark, options.kill);
      await within(streamsClosed, STREAM_CLOSE_WAIT_MS);
      child.stdout.destroy();
      child.stderr.destroy();
      if (options.onOutput) {
        for (const name of ['stdout', 'stderr'] as const)
          deliver(options.onOutput, name, decoders[name].end());
      }
      if (abortReason !== undefined) throw abortReason;
      return {
        pgid,
        exitCode: exit.code,
        signal: exit.signal,
        stdout: output.stdout.text(),
        stderr: output.stderr.text(),
        stdoutBytes: output.stdout.totalBytes,
        stderrBytes: output.stderr.totalBytes,
        truncated: output.stdout.truncated || output.stderr.truncated,
        durationMs: Date.now() - started,
      };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      untrack?.();
      settle();
    }
  })();
}

function deliver(
  listener: (stream: 'stdout' | 'stderr', text: string) => void,
  stream: 'stdout' | 'stderr',
  text: string,
): void {
  if (text.length === 0) return;
  try {
    listener(stream, text);
  } catch (error) {
    console.error('output listener failed:', error);
  }
}

function closed(stream: NodeJS.ReadableStream): Promise<void> {
  return new Promise((resolve) => {
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}

// Waits for `promise`, at most `ms`.
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
