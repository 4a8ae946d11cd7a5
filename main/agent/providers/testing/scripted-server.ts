// A local HTTP server on 127.0.0.1 that answers model requests from a script: a queue of responses,
// each a list of SSE frames (with delays, a cut, or a hang) or an HTTP error. It records every
// request so tests assert what a provider sent. Shared by provider, agent-loop and e2e tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One content block of a scripted model answer: text, or a tool call whose raw argument text is streamed as is. */
export type ScriptedBlock =
  | { text: string }
  | { toolCall: { id: string; name: string; args: string } }
  /** Anthropic: a thinking block and its signature; OpenAI-compatible: streamed as reasoning_content. */
  | { thinking: string; signature: string }
  /** Anthropic: a redacted_thinking block (its encrypted data). */
  | { redactedThinking: string }
  /** OpenAI-compatible: reasoning in the given field (default reasoning_content). */
  | { reasoning: string; field?: 'reasoning_content' | 'reasoning' };

/** One SSE frame to send; `data` goes out as is when a string, else as JSON. */
export interface SseFrame {
  event?: string;
  data: unknown;
  /** Wait before sending this frame (overrides the response's delayMs). */
  delayMs?: number;
}

/** One scripted answer. */
export interface ScriptedResponse {
  /** HTTP status; 200 streams `events`, anything else sends `body` as JSON. */
  status?: number;
  headers?: Record<string, string>;
  /** The body of a non-200 answer (JSON unless a string). */
  body?: unknown;
  events?: SseFrame[];
  /** Wait before each frame that sets no delay of its own. */
  delayMs?: number;
  /** Destroy the connection after sending this many frames (a socket cut mid-stream). */
  cutAfter?: number;
  /** Keep the connection open after the frames, until the client goes away or the server closes. */
  hang?: boolean;
  /** Write each frame in pieces of this many bytes, to exercise chunk boundaries. */
  splitBytes?: number;
  /**
   * A raw body instead of `events`, written piece by piece as it is (garbage, a line without end); a generator makes
   * hundreds of MB lazily and stops when the client goes away. `delayMs` waits before each piece; `cutAfter` counts
   * pieces; `hang` keeps the connection open after the last one.
   */
  raw?: () => Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;
  /** Accept the request and never answer, not even the headers. */
  silent?: boolean;
}

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it was not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests walk wire bodies freely
  body: any;
}

/** A running scripted server. */
export interface ScriptedServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** What a provider's baseUrl should be for this wire format. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Adds answers to the queue; each request takes the next one. */
  enqueue(...responses: ScriptedResponse[]): void;
  /** Answers still queued. */
  pending(): number;
  /**
   * The model ids GET {baseUrl}/models (Anthropic: /v1/models) lists, in both APIs' shape `{data: [{id}]}`; null
   * answers 404 as a server without a model list does. Assign to change it.
   */
  models: string[] | null;
  /** Drops the answers still queued (a fuzz case that ended before its retry was used). */
  clear(): void;
  /** Connections a client dropped before the answer ended (cancels, early breaks). */
  clientAborts(): number;
  close(): Promise<void>;
}

/** What makes one wire format's server. */
export interface ScriptedServerOptions {
  /** The only path answered (others get 404), e.g. /v1/messages. */
  path: string;
  /** Appended to the origin to make baseUrl ('' or '/v1'). */
  basePath: string;
  /** The JSON body of an error answer made from a message (each API has its own shape). */
  errorBody: (status: number, message: string) => unknown;
  /** Where the model list is answered, e.g. /v1/models. */
  modelsPath: string;
  /** Adjusts the scripted answer to the request it answers (e.g. billing its usage). */
  answerFor?: (body: unknown, response: ScriptedResponse) => ScriptedResponse;
}

/** Starts a scripted server on an ephemeral port of 127.0.0.1. */
export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const queue: ScriptedResponse[] = [];
  const requests: RecordedRequest[] = [];
  let aborts = 0;
  // Read by the handler through the returned object, so a test may assign a new list at any time.
  const state: { models: string[] | null } = { models: ['test-model'] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text.
      }
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      res.on('close', () => {
        if (!res.writableFinished) aborts += 1;
      });
      if (req.method === 'GET' && path === options.modelsPath && state.models !== null) {
        const data = state.models.map((id) => ({ id, object: 'model', type: 'model', display_name: id }));
        return sendJson(res, 200, { object: 'list', data, has_more: false });
      }
      if (req.method !== 'POST' || path !== options.path) {
        return sendJson(res, 404, options.errorBody(404, `test server: no route ${req.method} ${path}`));
      }
      const next = queue.shift();
      // 400 is not retried, so a test that sends one request too many fails at once and says why.
      if (!next) return sendJson(res, 400, options.errorBody(400, 'test server: no scripted response left'));
      void answer(res, options.answerFor ? options.answerFor(body, next) : next, options);
    });
  });
  // Idle keep-alive sockets are closed by the client (its 30 s), never first by this server: with Node's 5 s default,
  // a test whose event loop was busy longer than that (building 16 MB of attachments under load) sent its next
  // request on a socket the server was closing, and tests run without retries (ECONNRESET, "cannot reach").
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}${options.basePath}`,
    requests,
    get models() {
      return state.models;
    },
    set models(list) {
      state.models = list;
    },
    enqueue: (...responses) => void queue.push(...responses),
    pending: () => queue.length,
    clear: () => void queue.splice(0),
    clientAborts: () => aborts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serialises one frame the way the APIs do: optional `event:` line, one `data:` line, blank line. */
export function formatFrame(frame: SseFrame): string {
  const data = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
  return `${frame.event === undefined ? '' : `event: ${frame.event}\n`}data: ${data}\n\n`;
}

/** Splits `text` into pieces of `size` characters (at least one piece). */
export function pieces(text: string, size: number): string[] {
  if (text === '' || size <= 0) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

async function answer(res: http.ServerResponse, script: ScriptedResponse, options: ScriptedServerOptions) {
  const status = script.status ?? 200;
  if (status !== 200) {
    const body = script.body ?? options.errorBody(status, `scripted HTTP ${status}`);
    return sendJson(res, status, body, script.headers);
  }
  if (script.silent) return;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...script.headers,
  });
  res.flushHeaders();
  if (script.raw) return answerRaw(res, script, script.raw);
  const frames = script.events ?? [];
  for (const [index, frame] of frames.entries()) {
    if (script.cutAfter !== undefined && index >= script.cutAfter) break;
    const delay = frame.delayMs ?? script.delayMs ?? 0;
    if (delay > 0) await wait(delay);
    if (res.destroyed) return;
    const text = formatFrame(frame);
    const parts = script.splitBytes ? splitBytes(Buffer.from(text), script.splitBytes) : [Buffer.from(text)];
    for (const part of parts) await write(res, part);
  }
  if (script.cutAfter !== undefined) {
    // Let the written frames reach the client first, then drop the socket without ending the chunked body.
    await wait(20);
    res.socket?.destroy();
    return;
  }
  if (script.hang) return;
  res.end();
}

async function answerRaw(
  res: http.ServerResponse,
  script: ScriptedResponse,
  raw: NonNullable<ScriptedResponse['raw']>,
) {
  let count = 0;
  for await (const piece of raw()) {
    if (script.cutAfter !== undefined && count >= script.cutAfter) break;
    if (script.delayMs) await wait(script.delayMs);
    if (res.destroyed) return;
    await write(res, typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece));
    count += 1;
  }
  if (script.cutAfter !== undefined) {
    await wait(20);
    res.socket?.destroy();
    return;
  }
  if (script.hang || res.destroyed) return;
  res.end();
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
    ...headers,
  });
  res.end(text);
}

function write(res: http.ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(chunk, () => resolve());
  });
}

function splitBytes(buffer: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buffer.length; i += size) out.push(buffer.subarray(i, i + size));
  return out;
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
