// The masked terminal prompt: raw mode on a TTY, so nothing typed is echoed (not even a `*` that would
// tell the value's length); plus a reader for `--stdin`, where a script pipes the value in.
import { StringDecoder } from 'node:string_decoder';
import { escapeHidden } from '../../preload/contract/hidden-characters';
import type { SecretPrompt, SecretRequest } from './secret-prompt';

/** A terminal input stream (process.stdin on a TTY). */
export type TerminalInput = NodeJS.ReadableStream & {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
  isRaw?: boolean;
};

/** The most bytes a piped value may have. */
export const MAX_SECRET_BYTES = 64 * 1024;

// Escape sequences (arrow keys, bracketed-paste markers) are not part of a value.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]/g;

/** Whether `input` is a terminal the masked prompt can switch to raw mode. */
export function isTerminal(input: TerminalInput): boolean {
  return Boolean(input.isTTY && typeof input.setRawMode === 'function');
}

/** Asks on a terminal with echo off: Enter stores, Ctrl-C or Ctrl-D on an empty line cancels. */
export class TerminalSecretPrompt implements SecretPrompt {
  constructor(
    private readonly input: TerminalInput,
    private readonly write: (text: string) => void,
  ) {}

  /** Shows the question and reads one line without echo. */
  read(request: SecretRequest, signal: AbortSignal): Promise<string | null> {
    const { input, write } = this;
    if (!isTerminal(input))
      return Promise.reject(new Error('the masked prompt needs a terminal; pipe the value with --stdin'));
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const decoder = new StringDecoder('utf8');
      const wasRaw = Boolean(input.isRaw);
      let value = '';
      const done = (result: string | null, error?: unknown) => {
        input.removeListener('data', onData);
        signal.removeEventListener('abort', onAbort);
        input.setRawMode?.(wasRaw);
        input.pause();
        write('\n');
        if (error !== undefined) reject(error);
        else resolve(result);
      };
      const onAbort = () => done(null, signal.reason);
      const onData = (chunk: Buffer | string) => {
        const text = (typeof chunk === 'string' ? chunk : decoder.write(chunk)).replace(ESCAPES, '');
        for (const char of text) {
          if (char === '\r' || char === '\n') return done(value);
          if (char === '\x03') return done(null);
          if (char === '\x04') return done(value === '' ? null : value);
          if (char === '\x7f' || char === '\b') value = [...value].slice(0, -1).join('');
          else if (char === '\x15') value = '';
          else if (char >= ' ') value += char;
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      // Echo goes off before the question shows, so nothing typed after it can reach the screen.
      input.setRawMode?.(true);
      // The model wrote the question: its controls and bidi or zero-width characters show as escapes, so it cannot
      // move the cursor, repaint the lines above or reorder its words (as the approval prompt, format-request.ts).
      write(
        `\n${escapeHidden(request.question)}\n` +
          `${request.key}${request.forTool ? ` (for ${escapeHidden(request.forTool)})` : ''}, input hidden; Enter stores, Ctrl-C declines: `,
      );
      input.on('data', onData);
      input.resume();
    });
  }
}

/** Reads a piped value (`--stdin`) to its end: one trailing newline is dropped; empty means declined. */
export class StreamSecretPrompt implements SecretPrompt {
  constructor(private readonly input: NodeJS.ReadableStream) {}

  /** Reads the whole stream; `request` is not shown, since no one is there to read it. */
  async read(_request: SecretRequest, signal: AbortSignal): Promise<string | null> {
    signal.throwIfAborted();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of this.input) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > MAX_SECRET_BYTES)
        throw new Error(`the piped value is longer than ${MAX_SECRET_BYTES} bytes`);
      chunks.push(buffer);
      signal.throwIfAborted();
    }
    const value = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
    return value === '' ? null : value;
  }
}
