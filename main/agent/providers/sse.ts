// Server-sent events, parsed as the WHATWG event-stream grammar says, from raw body chunks.
// Both wire formats stream over SSE; chunks split lines, CRLF pairs and UTF-8 characters anywhere.
// One event is bounded (docs/robustness.md): a server that never ends a line cannot grow memory past the cap.

/** One dispatched event: its `event:` name ('message' when absent) and its joined `data:` lines. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** The cap on one event when the caller sets none: 8 MiB of UTF-8, far above any real delta. */
export const DEFAULT_MAX_EVENT_BYTES = 8 * 1024 * 1024;

/** Options of the parser. */
export interface SseOptions {
  /** The most UTF-8 bytes one event (its unfinished line and its data lines so far) may hold. */
  maxEventBytes?: number;
}

/** One event grew past the cap; nothing more of the stream is read. */
export class SseEventTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`one event of the stream is larger than ${limit} bytes`);
    this.name = 'SseEventTooLarge';
  }
}

/** Parses a byte stream into SSE messages; an event left without its closing blank line is dropped. */
export async function* parseSse(
  chunks: AsyncIterable<Uint8Array>,
  options: SseOptions = {},
): AsyncGenerator<SseMessage> {
  const parser = new SseParser(options);
  for await (const chunk of chunks) {
    yield* parser.push(chunk);
    parser.check();
  }
  yield* parser.end();
}

/** The incremental parser behind parseSse, for callers that feed chunks themselves. */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly maxEventBytes: number;
  // The unfinished last line, in pieces: joining only when it ends keeps a long line linear, not quadratic.
  private partial: string[] = [];
  private partialBytes = 0;
  private data: string[] = [];
  private dataBytes = 0;
  private event = '';
  private id: string | undefined;
  private started = false;
  // A CR ended the last chunk: an LF at the start of the next one belongs to it.
  private skipLf = false;
  private failure: SseEventTooLarge | null = null;

  constructor(options: SseOptions = {}) {
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  }

  /** Feeds one chunk; returns the messages it completed. Throws SseEventTooLarge once an event passed the cap. */
  push(chunk: Uint8Array | string): SseMessage[] {
    this.check();
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const out = this.scan(text);
    // Messages completed before the overflow still go out; the failure is thrown on the next call.
    if (out.length === 0) this.check();
    return out;
  }

  /** The bytes of the event still being read (its data lines so far and its unfinished line, unless a comment). */
  get pendingBytes(): number {
    const comment = this.partial[0]?.startsWith(':') ?? false;
    return (comment ? 0 : this.partialBytes) + this.dataBytes;
  }

  /** Throws the pending SseEventTooLarge, if an event passed the cap. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  /** Ends the stream; an unterminated last event is discarded (it may be a cut fragment). */
  end(): SseMessage[] {
    this.check();
    const out = this.scan(this.decoder.decode());
    this.partial = [];
    this.partialBytes = 0;
    this.data = [];
    this.dataBytes = 0;
    return out;
  }

  private scan(text: string): SseMessage[] {
    const out: SseMessage[] = [];
    let start = 0;
    if (this.skipLf && text.length > 0) {
      if (text.charCodeAt(0) === 10) start = 1;
      this.skipLf = false;
    }
    // Positions are searched once and only again when passed, so a big chunk is scanned in linear time.
    let cr = text.indexOf('\r', start);
    let lf = text.indexOf('\n', start);
    while (start < text.length) {
      if (cr >= 0 && cr < start) cr = text.indexOf('\r', start);
      if (lf >= 0 && lf < start) lf = text.indexOf('\n', start);
      if (cr < 0 && lf < 0) break;
      const end = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
      let next = end + 1;
      if (end === cr) {
        if (next < text.length) {
          if (text.charCodeAt(next) === 10) next += 1;
        } else {
          this.skipLf = true;
        }
      }
      const piece = text.slice(start, end);
      const bytes = this.partialBytes + Buffer.byteLength(piece);
      if (bytes + this.dataBytes > this.maxEventBytes) return this.overflow(out);
      const line = this.partial.length > 0 ? this.partial.join('') + piece : piece;
      this.partial = [];
      this.partialBytes = 0;
      const message = this.line(line, bytes);
      if (message) out.push(message);
      start = next;
    }
    if (start < text.length) {
      const rest = start === 0 ? text : text.slice(start);
      this.partial.push(rest);
      this.partialBytes += Buffer.byteLength(rest);
      if (this.partialBytes + this.dataBytes > this.maxEventBytes) return this.overflow(out);
    }
    return out;
  }

  private overflow(out: SseMessage[]): SseMessage[] {
    // Drop what was held: the memory is released at once, and the parser only ever fails from here.
    this.partial = [];
    this.partialBytes = 0;
    this.data = [];
    this.dataBytes = 0;
    this.failure = new SseEventTooLarge(this.maxEventBytes);
    return out;
  }

  private line(line: string, bytes: number): SseMessage | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      // The line's bytes bound its value's; one more for the newline that joins data lines.
      this.dataBytes += bytes + 1;
    } else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const hasData = this.data.length > 0;
    const message: SseMessage = { event: this.event || 'message', data: this.data.join('\n') };
    if (this.id !== undefined) message.id = this.id;
    this.data = [];
    this.dataBytes = 0;
    this.event = '';
    return hasData ? message : undefined;
  }
}
