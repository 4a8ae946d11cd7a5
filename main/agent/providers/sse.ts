// Server-sent events, parsed as the WHATWG event-stream grammar says, from raw body chunks.
// Both wire formats stream over SSE; chunks split lines, CRLF pairs and UTF-8 characters anywhere.

/** One dispatched event: its `event:` name ('message' when absent) and its joined `data:` lines. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** Parses a byte stream into SSE messages; an event left without its closing blank line is dropped. */
export async function* parseSse(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage> {
  const parser = new SseParser();
  for await (const chunk of chunks) yield* parser.push(chunk);
  yield* parser.end();
}

/** The incremental parser behind parseSse, for callers that feed chunks themselves. */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private started = false;

  /** Feeds one chunk; returns the messages it completed. */
  push(chunk: Uint8Array | string): SseMessage[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (!this.started && this.buffer.length > 0) {
      this.started = true;
      if (this.buffer.charCodeAt(0) === 0xfeff) this.buffer = this.buffer.slice(1);
    }
    return this.drain(false);
  }

  /** Ends the stream; an unterminated last event is discarded (it may be a cut fragment). */
  end(): SseMessage[] {
    this.buffer += this.decoder.decode();
    const out = this.drain(true);
    this.buffer = '';
    this.data = [];
    return out;
  }

  private drain(final: boolean): SseMessage[] {
    const out: SseMessage[] = [];
    let start = 0;
    // Positions are searched once and only again when passed, so a big chunk is scanned in linear time.
    let cr = this.buffer.indexOf('\r');
    let lf = this.buffer.indexOf('\n');
    for (;;) {
      if (cr >= 0 && cr < start) cr = this.buffer.indexOf('\r', start);
      if (lf >= 0 && lf < start) lf = this.buffer.indexOf('\n', start);
      if (cr < 0 && lf < 0) break;
      const end = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
      let next = end + 1;
      if (end === cr) {
        // A CR at the very end may be the first half of a CRLF still in flight.
        if (next === this.buffer.length && !final) break;
        if (this.buffer[next] === '\n') next += 1;
      }
      const message = this.line(this.buffer.slice(start, end));
      if (message) out.push(message);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const hasData = this.data.length > 0;
    const message: SseMessage = { event: this.event || 'message', data: this.data.join('\n') };
    if (this.id !== undefined) message.id = this.id;
    this.data = [];
    this.event = '';
    return hasData ? message : undefined;
  }
}
