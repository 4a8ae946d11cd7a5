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
export function limitResponse(response: Response, limitBytes: number = HTTP_MAX_MESSAGE_BYTES): Response {
  if (response.body === null) return response;
  const events = /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
  const body = response.body as ReadableStream<Uint8Array>;
  const limited = new Response(body.pipeThrough(messageLimit(events, limitBytes)), {
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
function messageLimit(events: boolean, limitBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let held = 0;
  let lineBytes = 0;
  let afterCR = false;
  return new TransformStream({
    transform(chunk, controller) {
      if (!events) held += chunk.length;
      else
        for (const byte of chunk) {
          if (byte === 0x0a && afterCR) {
            afterCR = false;
            continue;
          }
          afterCR = byte === 0x0d;
          if (byte === 0x0a || byte === 0x0d) {
            if (lineBytes === 0) held = 0;
            lineBytes = 0;
          } else {
            lineBytes++;
            held++;
          }
        }
      if (held > limitBytes) controller.error(new MessageTooLargeError(limitBytes));
      else controller.enqueue(chunk);
    },
  });
}
