// Checkpoints one streaming assistant message at a steady pace: at most one write per interval while text
// streams, at least one per interval while there is unsaved text, and the final content at the end.
import type { AssistantPart } from './transcript';
import type { FinishStatus, MessageTable } from './messages';

/** The pace docs/agent-loop.md ("What is saved, and when") sets: streaming text is saved at least every 250 ms. */
export const CHECKPOINT_INTERVAL_MS = 250;

/** Throttled checkpoints of a message begun with `messages.begin`. */
export class StreamCheckpointer {
  private pending: AssistantPart[] | null = null;
  // The pace counts on the monotonic clock: the wall clock may jump back an hour, and the next save with it.
  private lastWrite = performance.now();
  private timer: NodeJS.Timeout | null = null;
  private failure: unknown = null;
  private done = false;

  constructor(
    private readonly messages: Pick<MessageTable, 'checkpoint' | 'finish'>,
    /** The streaming message's id. */
    readonly id: number,
    private readonly intervalMs: number = CHECKPOINT_INTERVAL_MS,
  ) {}

  /** Takes the whole content streamed so far; saves it now if the interval has passed, else when it does. */
  update(content: AssistantPart[]): void {
    this.throwIfFailed();
    if (this.done) throw new Error(`message ${this.id} is already finished`);
    this.pending = content;
    const wait = this.lastWrite + this.intervalMs - performance.now();
    if (wait <= 0) this.flush();
    else this.timer ??= setTimeout(() => this.flushFromTimer(), wait);
  }

  /** Saves unsaved content at once; while another connection holds the write lock, it stays unsaved for the next try. */
  flush(): void {
    this.clearTimer();
    if (this.pending === null) return;
    const content = this.pending;
    this.pending = null;
    try {
      this.messages.checkpoint(this.id, content);
    } catch (error) {
      if (!isBusy(error)) throw error;
      // A lock held past the busy wait is another writer's moment (a backup, the sqlite3 shell, another agenvoy), not
      // the end of the turn: the content is saved at the next interval, or by finish (docs/robustness.md).
      this.pending ??= content;
      this.lastWrite = performance.now();
      this.timer ??= setTimeout(() => this.flushFromTimer(), this.intervalMs);
      return;
    }
    this.lastWrite = performance.now();
  }

  /** Saves the final content and how the stream ended; no checkpoint follows. */
  finish(content: AssistantPart[], status: FinishStatus): void {
    this.clearTimer();
    this.pending = null;
    this.done = true;
    // The final content supersedes any checkpoint that failed on the way.
    this.failure = null;
    this.messages.finish(this.id, content, status);
  }

  private flushFromTimer(): void {
    this.timer = null;
    // A throw inside a timer would take the process down; the next update or finish reports it instead.
    try {
      this.flush();
    } catch (error) {
      this.failure = error;
    }
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
