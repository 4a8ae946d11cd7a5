// Streams a command's output as progress without flooding: chunks are batched and each batch is bounded.
import type { ProgressUpdate } from './types';

/** How often batched output is reported. */
export const OUTPUT_FLUSH_MS = 200;

/** Most characters one progress update carries; older output in a burst is skipped with a note. */
export const OUTPUT_BATCH_CHARS = 64 * 1024;

/** Collects output chunks and reports them as `{ output }` progress at most every OUTPUT_FLUSH_MS. */
export class OutputProgress {
  private pending = '';
  private skipped = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly progress: (update: ProgressUpdate) => void) {}

  /** Adds a chunk; it is reported with the next batch. */
  push(chunk: string): void {
    this.pending += chunk;
    // Only the tail of a burst is worth showing live; the result keeps the full capped output.
    if (this.pending.length > OUTPUT_BATCH_CHARS) {
      this.skipped += this.pending.length - OUTPUT_BATCH_CHARS;
      this.pending = this.pending.slice(-OUTPUT_BATCH_CHARS);
    }
    this.timer ??= setTimeout(() => this.flush(), OUTPUT_FLUSH_MS);
  }

  /** Reports what is pending now (call once the command has ended). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    const note = this.skipped > 0 ? `[${this.skipped.toLocaleString('en-US')} characters skipped]\n` : '';
    const output = note + this.pending;
    this.pending = '';
    this.skipped = 0;
    try {
      this.progress({ output });
    } catch {
      // A failing listener must not break the command.
    }
  }
}
