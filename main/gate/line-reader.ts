// Reads answers a line at a time from a stream, keeping lines that arrive early and letting go of the stream between prompts.
import readline from 'node:readline';

/**
 * On a terminal, a line that arrives within this long of a question, or was typed before it was shown, is not its
 * answer: "y" Enter pressed twice, or typed while the model worked, would decide the next call unseen
 * (terminal-typeahead-attack.test.ts). Piped input is read as it comes.
 */
export const TYPE_AHEAD_MS = 300;

/** Line source for the terminal prompter. */
export class LineReader {
  private rl: readline.Interface | null = null;
  private readonly lines: string[] = [];
  private waiter: ((line: string | null) => void) | null = null;
  private ended = false;
  private readonly terminal: boolean;
  private askedAt = 0;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    /** Where a terminal echoes typed input (a TTY stdin); omit for pipes. */
    private readonly echo?: NodeJS.WritableStream,
    /** Told when typed-ahead input is ignored (a terminal only). */
    private readonly note: (text: string) => void = () => {},
  ) {
    this.terminal = Boolean((input as { isTTY?: boolean }).isTTY && echo);
  }

  /** The next line, or null at end of input or when `signal` fires. */
  next(signal: AbortSignal): Promise<string | null> {
    if (this.terminal) {
      if (this.lines.length > 0) this.ignored();
      this.lines.length = 0;
      this.askedAt = Date.now();
    }
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if ((this.input as { readableEnded?: boolean }).readableEnded && !this.rl) this.ended = true;
    if (this.ended || signal.aborted) return Promise.resolve(null);
    this.open();
    return new Promise((resolve) => {
      const onAbort = () => {
        this.waiter = null;
        resolve(null);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = (line) => {
        signal.removeEventListener('abort', onAbort);
        this.waiter = null;
        resolve(line);
      };
    });
  }

  /** Lets go of the input between prompts, so an idle CLI can exit; lines already read stay queued. */
  release(): void {
    const rl = this.rl;
    this.rl = null;
    rl?.close();
  }

  private open(): void {
    if (this.rl) return;
    const terminal = this.terminal;
    const rl = readline.createInterface({
      input: this.input,
      output: terminal ? this.echo : undefined,
      terminal,
    });
    this.rl = rl;
    rl.on('line', (line) => {
      if (terminal && this.waiter && Date.now() - this.askedAt < TYPE_AHEAD_MS) return this.ignored();
      if (this.waiter) this.waiter(line);
      else this.lines.push(line);
    });
    rl.on('close', () => {
      // Our own release is not the end of input.
      if (this.rl !== rl) return;
      this.rl = null;
      this.ended = true;
      this.waiter?.(null);
    });
  }

  private ignored(): void {
    this.note('(input typed before this question was shown was ignored; answer it now)\n');
  }
}
