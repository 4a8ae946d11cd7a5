// Streams a command's output as progress without flooding: chunks are batched and each batch is bounded. Every
// chunk goes through the stream redactor first, so what could still become a secret is held back (docs/security.md).
import type { OutputRedactor, ProgressUpdate, RedactionPort } from '../sdk/types';

/** How often batched output is reported. */
export const OUTPUT_FLUSH_MS = 200;

/** Most characters one progress update carries; older output in a burst is skipped with a note. */
export const OUTPUT_BATCH_CHARS = 64 * 1024;

/** Collects output chunks and reports them as `{ output }` progress at most every OUTPUT_FLUSH_MS. */
export class OutputProgress {
  private pending = '';
  private skipped = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly redactor: OutputRedactor | null;

  /** Without `redaction` (a host that knows no secrets) chunks are shown as they come. */
  constructor(
    private readonly progress: (update: ProgressUpdate) => void,
    redaction?: RedactionPort,
  ) {
    this.redactor = redaction?.stream() ?? null;
  }

  /** Adds a chunk; what is safe to show is reported with the next batch. */
  push(chunk: string): void {
    this.add(this.scrub(() => this.redactor?.push(chunk) ?? chunk));
  }

  /** Ends the stream: whatever was held back is reported now, redacted (call once the command has ended). */
  end(): void {
    this.add(this.scrub(() => this.redactor?.end() ?? ''));
    this.flush();
  }

  /** Reports what is pending now. */
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

  private add(text: string): void {
    if (text === '') return;
    this.pending += text;
    // Only the tail of a burst is worth showing live; the result keeps the full capped output. The text is
    // already redacted, so cutting its front cannot leave a piece of a secret behind.
    if (this.pending.length > OUTPUT_BATCH_CHARS) {
      this.skipped += this.pending.length - OUTPUT_BATCH_CHARS;
      this.pending = this.pending.slice(-OUTPUT_BATCH_CHARS);
    }
    this.timer ??= setTimeout(() => this.flush(), OUTPUT_FLUSH_MS);
  }

  // A redactor that fails shows nothing rather than the raw text.
  private scrub(work: () => string): string {
    try {
      return work();
    } catch {
      return '';
    }
  }
}
