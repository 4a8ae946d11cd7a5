// The size limit of one message an MCP server sends over HTTP (docs/security.md, "A hostile MCP server"): a JSON
// answer is one message, an event stream is read event by event. Past the limit the body errors and its connection
// is dropped; without it the SDK read a JSON answer whole (`response.json()`) and an event until its blank line,
// however long, so a server that never stopped sending grew the app's memory until it died.
import { STDIO_MAX_MESSAGE_BYTES } from './group-stdio-transport';

/** The largest message an MCP server may send over HTTP: the same 10 MiB as over stdio. */
export const HTTP_MAX_MESSAGE_BYTES = STDIO_MAX_MESSAGE_BYTES;

/** A server's message passed the limit. */
export class MessageTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(
      `the server sent a message larger than ${limitBytes / (1024 * 1024)} MiB (the limit of one message)`,
    );
    this.name = 'MessageTooLargeError';
  }
}

/** `response` with a body that errors once one message of it passes `limitBytes`. */
export function limitResponse(
  response: Response,
  limitBytes: number = HTTP_MAX_MESSAGE_BYTES,
  onEnd?: () => void,
): Response {
  if (response.body === null) {
    onEnd?.();
    return response;
  }
  const events = /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
  const body = response.body as ReadableStream<Uint8Array>;
  const limited = new Response(body.pipeThrough(messageLimit(events, limitBytes, onEnd)), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // The SSE client reads these to follow a redirect; a new Response would lose them.
  Object.defineProperties(limited, {
    url: { value: response.url },
    redirected: { value: response.redirected },
  });
  return limited;
}

// Counts the bytes of the message being read: the whole body, or for an event stream the bytes since the last
// blank line (an event ends at a blank line; lines end with CRLF, LF or CR).
// `onEnd` is told once the body has ended, whole or cut at the limit.
function messageLimit(
  events: boolean,
  limitBytes: number,
  onEnd?: () => void,
): TransformStream<Uint8Array, Uint8Array> {
  const scan: EventScan = { held: 0, lineBytes: 0, afterCR: false };
  return new TransformStream({
    transform(chunk, controller) {
      if (events) countEventBytes(chunk, scan);
      else scan.held += chunk.length;
      if (scan.held > limitBytes) {
        controller.error(new MessageTooLargeError(limitBytes));
        onEnd?.();
      } else controller.enqueue(chunk);
    },
    flush() {
      onEnd?.();
    },
  });
}

/** Where the reading of an event stream stands, from one chunk to the next. */
export interface EventScan {
  /** Bytes of the current event, line breaks not counted. */
  held: number;
  /** Bytes of the current line. */
  lineBytes: number;
  /** The last byte was a CR (a LF right after it ends the same line). */
  afterCR: boolean;
}

/**
 * Adds `chunk` to `scan`. It jumps from line break to line break with indexOf (memchr): every stream answer of an HTTP
 * server passes here, and a loop over each byte cost 14-30 ms per MiB on this machine.
 */
export function countEventBytes(chunk: Uint8Array, scan: EventScan): void {
  let pos = 0;
  let nextLF = chunk.indexOf(0x0a);
  let nextCR = chunk.indexOf(0x0d);
  while (pos < chunk.length) {
    const brk = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
    const run = (brk === -1 ? chunk.length : brk) - pos;
    if (run > 0) {
      scan.lineBytes += run;
      scan.held += run;
      scan.afterCR = false;
    }
    if (brk === -1) return;
    if (chunk[brk] === 0x0a && scan.afterCR) scan.afterCR = false;
    else {
      scan.afterCR = chunk[brk] === 0x0d;
      // A line break ends a line; one that ends an empty line ends the event.
      if (scan.lineBytes === 0) scan.held = 0;
      scan.lineBytes = 0;
    }
    pos = brk + 1;
    if (brk === nextLF) nextLF = chunk.indexOf(0x0a, pos);
    if (brk === nextCR) nextCR = chunk.indexOf(0x0d, pos);
  }
}
