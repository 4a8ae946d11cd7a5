// Reads answers a line at a time from a stream, keeping lines that arrive early and letting go of the stream between prompts.
import readline from 'node:readline';

/** Line source for the terminal prompter. */
export class LineReader {
  private rl: readline.Interface | null = null;
  private readonly lines: string[] = [];
  private waiter: ((line: string | null) => void) | null = null;
  private ended = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    /** Where a terminal echoes typed input (a TTY stdin); omit for pipes. */
    private readonly echo?: NodeJS.WritableStream,
  ) {}

  /** The next line, or null at end of input or when `signal` fires. */
  next(signal: AbortSignal): Promise<string | null> {
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
    const terminal = Boolean((this.input as { isTTY?: boolean }).isTTY && this.echo);
    const rl = readline.createInterface({
      input: this.input,
      output: terminal ? this.echo : undefined,
      terminal,
    });
    this.rl = rl;
    rl.on('line', (line) => {
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
}
