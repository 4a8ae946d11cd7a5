// The stdio transport of MCP servers, in their own process group: the SDK's own transport inherits stderr and
// signals only the direct child, so a server started through `npx` or a shell would leave its tree behind.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RedactionPort } from '../../../tools/sdk/types';
import type { ProcessGroups } from '../../process/process-group';
import { groupRecord, killGroup, killMarked, RUN_MARK_ENV } from '../../process/process-group';
import { LogBudget } from './log-budget';
import { readMessage } from './read-message';

/** How long a server gets to exit by itself after its stdin closes, before its group is killed. */
const CLOSE_GRACE_MS = 500;
/** How long to wait for stdout's last bytes after the server exits (a response written just before exiting). */
const DRAIN_AFTER_EXIT_MS = 100;
const STDERR_TAIL_LINES = 10;
const MAX_STDERR_LINE = 2000;
/**
 * How long a server has, after it was told to cancel a request (notifications/cancelled), to answer that request
 * (a result or an error) before its process tree is stopped and it is restarted: a server that stays silent may be
 * working on, and the person was told the call stopped (docs/dispatch.md, "MCP requests").
 */
export const CANCEL_GRACE_MS = 1000;
/** The largest message a server may send (the SDK's buffer bound, 10 MiB). */
export const STDIO_MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** What to start. */
export interface GroupStdioOptions {
  command: string;
  args: string[];
  /** The child's whole environment. */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Every line the server writes to stderr (it goes to the app log, never to our own stderr), within the LogBudget. */
  onStderr?: (line: string) => void;
  /**
   * Scrubs stderr as one stream before it is cut into lines, so that a key wrapped over two lines (MIME base64, a
   * folded line) is found whole; the log scrubs each line again (docs/security.md, "Redaction").
   */
  stderrRedaction?: RedactionPort;
  /** Says how many lines of stray output the LogBudget left out of the log (at most one note a second). */
  onLeftOut?: (note: string) => void;
  /** Where the live group is tracked, so quitting kills it. */
  groups?: ProcessGroups;
  /**
   * The command line its group is recorded under (default: command and args). A chatting host persists the record, so
   * it must hold no secret: the caller passes the line as mcp.json wrote it, `${secret:NAME}` unexpanded.
   */
  label?: string;
  /** Overrides CANCEL_GRACE_MS (tests). */
  cancelGraceMs?: number;
  /** False: a cancelled call is only asked to stop, never ended by a restart (mcp.json `restartOnCancel`). */
  restartOnCancel?: boolean;
  /**
   * The server sent the result of a tool call after it was told to cancel it, this long after: the work went on and
   * finished (docs/dispatch.md, "MCP requests"). Watched here rather than by wrapping send and onmessage as over HTTP
   * (late-answers.ts): this transport already follows every call's id, and every call pays for a wrapper.
   */
  onLateAnswer?: (afterMs: number) => void;
}

/** At most this many cancelled calls are remembered for a late answer; the oldest are forgotten first. */
const LATE_TRACKED = 256;

/** How the server process ended. */
export interface StdioExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Its last stderr lines, which usually say why. */
  stderrTail: string[];
  /** Set when the transport stopped the server for breaking the protocol: why. */
  violation?: string | null;
  /** The server was stopped to end a cancelled call: it is restarted at once, not backed off like a crash. */
  restart?: boolean;
}

/** `exited with code 1 (last stderr line)` or `was killed by SIGKILL`. */
export function describeExit(exit: StdioExit): string {
  // Killed by us, for a reason of its own making: that reason, not the signal.
  if (exit.violation) return exit.violation;
  // A killed server's last stderr line is whatever it logged before, not why it died.
  if (exit.signal) return `was killed by ${exit.signal}`;
  const last = exit.stderrTail.at(-1);
  return last ? `exited with code ${exit.code} (${last})` : `exited with code ${exit.code}`;
}

/** An MCP transport over a child process's stdin/stdout, in its own process group. */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcessWithoutNullStreams | null = null;
  /** The start of a message not yet ended by its newline, in the chunks it came in. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly stderrTail: string[] = [];
  private exitInfo: StdioExit | null = null;
  private closed = false;
  /** Why the transport ended the session itself (the server broke the protocol), or null. */
  private violation: string | null = null;
  private restart = false;
  /** Every process the server starts inherits this mark, so those that leave its group are found too. */
  private readonly mark = randomUUID();
  /** What of its stderr and stray stdout lines reaches the log. */
  private readonly budget = new LogBudget();
  private noteTimer: NodeJS.Timeout | undefined;
  /** The kill of what the server left behind, once it exited. */
  private swept: Promise<unknown> = Promise.resolve();
  /** The tools/call requests sent and not answered yet: only their cancels are watched. */
  private readonly calls = new Set<string | number>();
  /** Requests the server was told to cancel and has not answered yet, each with the timer of its grace. */
  private cancels: Map<string | number, NodeJS.Timeout> | null = null;
  /** When each cancelled call was told to cancel (performance.now()), while its answer may still come. */
  private cancelledAt: Map<string | number, number> | null = null;

  constructor(private readonly options: GroupStdioOptions) {}

  /** The server's pid (and process group id) once started. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** How the process ended; null while it runs. */
  get exit(): StdioExit | null {
    return this.exitInfo;
  }

  /** Spawns the server; rejects when the command cannot be started. */
  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    const { command, args, env, cwd } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: { ...env, [RUN_MARK_ENV]: this.mark },
        cwd,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.child = child;
      child.once('error', (error) => {
        if (child.pid === undefined) {
          this.closed = true;
          reject(new Error(`cannot start "${command}": ${error.message}`));
        } else this.onerror?.(error);
      });
      child.once('spawn', () => {
        const pid = child.pid as number;
        const untrack = this.options.groups?.add(
          groupRecord(pid, this.options.label ?? [command, ...args].join(' '), this.mark),
          () => this.close(),
        );
        child.once('exit', (code, signal) => {
          untrack?.();
          this.exitInfo = {
            code,
            signal,
            stderrTail: [...this.stderrTail],
            violation: this.violation,
            restart: this.restart,
          };
          // Helpers the server started may outlive it: the group dies with it, and so does whatever left the group
          // (setsid, a double fork) but still carries the mark (docs/dispatch.md, "Process-tree kill").
          this.swept = killGroup(pid)
            .catch(() => false)
            .then(() => killMarked(this.mark))
            .catch(() => false);
          this.finishAfterDrain();
        });
        resolve();
      });
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
      this.pipeStderr(child);
    });
  }

  /** Writes one message to the server's stdin. */
  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.closed || this.exitInfo) return Promise.reject(new Error('Not connected'));
    if ('method' in message) {
      if (message.method === 'tools/call' && 'id' in message) this.calls.add(message.id);
      else if (message.method === 'notifications/cancelled') this.watchCancel(message.params);
    }
    return new Promise((resolve) => {
      if (child.stdin.write(serializeMessage(message))) resolve();
      else child.stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, gives the server a moment to exit, then kills its group (SIGTERM, 500 ms, SIGKILL). */
  async close(): Promise<void> {
    const child = this.child;
    // Nothing to stop: never started, already exited, or it could not be spawned.
    if (!child || this.exitInfo || this.closed) {
      this.finish();
      return;
    }
    // Closing on purpose (quit, reconnect): a cancel's grace running out meanwhile is no fault of the server.
    this.clearCancels();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin.end();
    if (!(await settlesWithin(exited, CLOSE_GRACE_MS)) && child.pid !== undefined) {
      await killGroup(child.pid).catch(() => false);
      // The group is gone once killGroup returns, but Node reports the exit (and untracks it) a moment later.
      await settlesWithin(exited, CLOSE_GRACE_MS);
    }
    // Quitting waits for the helpers outside the group too (killMarked gives up after 2 s).
    await this.swept;
    this.finish();
  }

  // Lines are split as they arrive, each byte looked at once: the SDK's ReadBuffer copies and searches everything
  // held on every chunk (seconds of a blocked main thread for one 10 MiB message), and throws from this stream
  // listener when a message passes its bound, which nothing catches: the app would exit.
  private receive(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      if (this.violation) return;
      const end = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      // docs/security.md, "A hostile MCP server": a message past the limit ends the session.
      if (this.pendingBytes + piece.length > STDIO_MAX_MESSAGE_BYTES) return this.refuse();
      if (end === -1) {
        if (piece.length > 0) this.pending.push(piece);
        this.pendingBytes += piece.length;
        return;
      }
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
      const text = line.toString('utf8');
      this.deliver(text.charCodeAt(text.length - 1) === 0x0d ? text.slice(0, -1) : text);
    }
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      // A JSON-RPC message is an object: anything else is told apart without JSON.parse building an error (and its
      // stack) for every line of a flood.
      if (!/^\s*\{/.test(line))
        throw new Error(`not a JSON-RPC message: ${JSON.stringify(line.slice(0, 80))}`);
      message = readMessage(line);
    } catch (error) {
      // A line that is not JSON-RPC (a stray log line on stdout) is reported, within the budget, and skipped.
      if (this.logs(line.length)) this.onerror?.(error as Error);
      return;
    }
    if ('id' in message && message.id !== undefined && !('method' in message)) {
      this.calls.delete(message.id);
      // An answer to a call it was told to cancel: the server stopped working on it (or had finished).
      if (this.cancels) {
        clearTimeout(this.cancels.get(message.id));
        this.cancels.delete(message.id);
      }
      const at = this.cancelledAt?.get(message.id);
      if (at !== undefined) {
        this.cancelledAt?.delete(message.id);
        // A result says the work finished; an error is the server saying it stopped (the Python SDK answers so).
        if ('result' in message) this.options.onLateAnswer?.(performance.now() - at);
      }
    }
    this.onmessage?.(message);
  }

  // docs/dispatch.md, "MCP requests": the protocol has no acknowledgement of a cancel, and a server may ignore it
  // (the SDK's own servers drop the answer but let the handler run on). The person was told the call stopped, so a
  // server that does not answer the cancelled request within the grace is stopped, its whole tree with it.
  private watchCancel(params: unknown): void {
    const id = (params as { requestId?: unknown } | undefined)?.requestId;
    // A tool call's work, not a slow tools/list given up at its own timeout (that one only fails the refresh).
    if ((typeof id !== 'string' && typeof id !== 'number') || !this.calls.has(id) || this.violation) return;
    this.calls.delete(id);
    if (this.options.onLateAnswer) {
      const cancelled = (this.cancelledAt ??= new Map());
      if (cancelled.size >= LATE_TRACKED) cancelled.delete(cancelled.keys().next().value as string | number);
      cancelled.set(id, performance.now());
    }
    if (this.options.restartOnCancel === false) return;
    const grace = this.options.cancelGraceMs ?? CANCEL_GRACE_MS;
    const timer = setTimeout(() => this.cancelIgnored(grace), grace);
    timer.unref?.();
    (this.cancels ??= new Map()).set(id, timer);
  }

  private cancelIgnored(grace: number): void {
    const pid = this.child?.pid;
    if (this.violation || this.closed || this.exitInfo || pid === undefined) return;
    this.violation = `was restarted to stop a cancelled call (no answer within ${grace / 1000} s of notifications/cancelled, so it may have kept working)`;
    this.restart = true;
    this.clearCancels();
    // No stdin close and wait first: the server already had its grace. The exit then ends the session (onclose).
    void killGroup(pid).catch(() => {});
  }

  private clearCancels(): void {
    for (const timer of this.cancels?.values() ?? []) clearTimeout(timer);
    this.cancels = null;
  }

  // The server broke the protocol: nothing more it sends is read, and its group is stopped; its calls fail at once
  // with the reason (describeExit), not at their limit.
  private refuse(): void {
    this.violation = `sent a message larger than ${STDIO_MAX_MESSAGE_BYTES / (1024 * 1024)} MiB (the limit of one message)`;
    this.pending = [];
    this.pendingBytes = 0;
    void this.close().catch(() => {});
  }

  private pipeStderr(child: ChildProcessWithoutNullStreams): void {
    const decoder = new StringDecoder('utf8');
    const scrub = this.options.stderrRedaction?.stream();
    let partial = '';
    const emit = (line: string) => {
      const clipped = line.length > MAX_STDERR_LINE ? `${line.slice(0, MAX_STDERR_LINE)}…` : line;
      if (clipped.trim() === '') return;
      this.stderrTail.push(clipped);
      if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      if (this.logs(clipped.length)) this.options.onStderr?.(clipped);
    };
    child.stderr.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk);
      const lines = (partial + (scrub ? scrub.push(text) : text)).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) emit(line);
    });
    child.stderr.on('end', () => {
      const text = decoder.end();
      emit(partial + (scrub ? scrub.push(text) + scrub.end() : text));
    });
  }

  // Whether a line of stray output may be logged; when one may not, a note of what was left out follows within a second.
  private logs(size: number): boolean {
    if (this.budget.take(size)) return true;
    if (!this.noteTimer) {
      this.noteTimer = setTimeout(() => this.flushNote(), 1000);
      this.noteTimer.unref?.();
    }
    return false;
  }

  private flushNote(): void {
    clearTimeout(this.noteTimer);
    this.noteTimer = undefined;
    const note = this.budget.note();
    if (note) this.options.onLeftOut?.(note);
  }

  private finishAfterDrain(): void {
    const child = this.child;
    if (!child || child.stdout.readableEnded) return this.finish();
    const timer = setTimeout(() => this.finish(), DRAIN_AFTER_EXIT_MS);
    child.stdout.once('close', () => {
      clearTimeout(timer);
      this.finish();
    });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.flushNote();
    this.calls.clear();
    this.cancelledAt = null;
    this.clearCancels();
    this.pending = [];
    this.pendingBytes = 0;
    this.onclose?.();
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), timeout]).finally(() => clearTimeout(timer));
}
