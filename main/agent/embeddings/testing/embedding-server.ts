// A local embedding server for tests and the bench: it speaks OpenAI's `POST /v1/embeddings` and Ollama's
// `POST /api/embed` wire formats and answers deterministic vectors: a hashed bag of *concepts*, where a small table
// maps words to a shared concept ("thirst" and "beverage" → drink). That is the stand-in for a real model, which
// cannot run or be reached here; what it gives the tests is texts that share no word but share meaning. It can also
// be slow, down or hostile, and it counts every request.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// Words that carry no meaning to the stand-in model (a real model weighs them down by itself).
const STOPWORDS = new Set(
  'a am an and are as at be by do for from i in is it me my of on or so the this to use we when with you your'.split(
    ' ',
  ),
);

/** How the server misbehaves (one at a time). */
export type EmbeddingServerMode =
  | 'ok'
  /** Waits `delayMs` before answering. */
  | 'slow'
  /** 500 with an error body. */
  | 'error'
  /** Answers one vector fewer than asked. */
  | 'fewer'
  /** The second vector is one number longer than the first. */
  | 'ragged'
  /** Every vector of another length than before (`dimensions` + 7). */
  | 'resized'
  /** A number too large for a double (JSON.parse makes it Infinity). */
  | 'infinite'
  /** The bare token NaN (not JSON). */
  | 'nan'
  /** All zeros. */
  | 'zeros'
  /** A body far larger than any honest answer, streamed until the client stops reading. */
  | 'huge'
  /** 401 whose body echoes the Authorization header it got. */
  | 'echo-key'
  /** 401 whose body repeats the Authorization header's token upper-cased and in base64, as a careless server may. */
  | 'echo-key-forms'
  /** A redirect to another address. */
  | 'redirect'
  /** A vector of 100,000 numbers. */
  | 'too-long'
  /**
   * 500 whose JSON `error` is 260 KB long, with the Authorization header it got echoed so that it straddles the
   * 300th character (a cap that cut before scrubbing would leave the key's start).
   */
  | 'huge-error';

/** Options of the server. */
export interface EmbeddingServerOptions {
  /** Length of the vectors (default 64). */
  dimensions?: number;
  /** Words that stand for a shared concept. */
  concepts?: Record<string, string>;
  /** The key the server expects as `Bearer <key>`; unset: any or none. */
  key?: string;
}

/** Length of the `huge-error` body's message. */
export const HUGE_ERROR_CHARS = 260 * 1024;

/** A running server. */
export interface EmbeddingServer {
  /** The OpenAI-compatible base URL (ends in /v1, like the real ones; Ollama's native API is beside it). */
  baseUrl: string;
  /** Requests answered per path. */
  requests: { openai: number; ollama: number };
  /** Every text asked for, in order. */
  texts: string[];
  /** The Authorization headers received. */
  authorizations: string[];
  mode: EmbeddingServerMode;
  delayMs: number;
  /** A request with a text containing this answers 500 whatever the mode (a batch that fails, the others fine). */
  failOn: string | null;
  /** The vector a text gets (what the server answers in mode ok). */
  vectorOf(text: string): number[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 and a free port. */
export async function startEmbeddingServer(options: EmbeddingServerOptions = {}): Promise<EmbeddingServer> {
  const dimensions = options.dimensions ?? 64;
  const concepts = options.concepts ?? {};
  const vectorOf = (text: string, length = dimensions): number[] => {
    const vector = new Array<number>(length).fill(0);
    for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
      if (word.length < 2 || STOPWORDS.has(word)) continue;
      const concept = concepts[word] ?? word;
      const digest = createHash('sha256').update(concept).digest();
      const first = digest.readUInt32BE(0) % length;
      const second = digest.readUInt32BE(4) % length;
      vector[first] = (vector[first] ?? 0) + 1;
      // A second, weaker coordinate, so two concepts sharing a slot do not collide completely.
      vector[second] = (vector[second] ?? 0) + 0.5;
    }
    return vector;
  };
  const server: EmbeddingServer = {
    baseUrl: '',
    requests: { openai: 0, ollama: 0 },
    texts: [],
    authorizations: [],
    mode: 'ok',
    delayMs: 0,
    failOn: null,
    vectorOf: (text) => vectorOf(text),
    close: () => Promise.resolve(),
  };
  const sockets = new Set<Socket>();
  const httpServer = http.createServer((request, response) => {
    void answer(request, response);
  });
  httpServer.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const wire = request.url === '/v1/embeddings' ? 'openai' : request.url === '/api/embed' ? 'ollama' : null;
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST' || wire === null) return json(404, { error: 'not found' });
    server.requests[wire]++;
    const authorization = request.headers.authorization ?? '';
    server.authorizations.push(authorization);
    let body: { model?: unknown; input?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      return json(400, { error: 'bad json' });
    }
    const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
    server.texts.push(...inputs);
    if (server.mode === 'slow' || server.delayMs > 0)
      await new Promise((resolve) => setTimeout(resolve, server.delayMs));
    if (response.destroyed) return;
    if (options.key !== undefined && authorization !== `Bearer ${options.key}`)
      return json(401, { error: { message: 'Incorrect API key provided' } });
    if (server.failOn !== null && inputs.some((text) => text.includes(server.failOn as string)))
      return json(500, { error: 'this batch failed' });
    switch (server.mode) {
      case 'huge-error':
        return json(500, {
          error: `${'e'.repeat(280)} ${authorization} ${'x'.repeat(HUGE_ERROR_CHARS)}`,
        });
      case 'error':
        return json(500, { error: 'the model crashed' });
      case 'echo-key':
        return json(401, { error: { message: `Incorrect API key provided: ${authorization}` } });
      case 'echo-key-forms': {
        const token = authorization.replace(/^\S+ /, '');
        const error = `token ${token.toUpperCase()} (${Buffer.from(token).toString('base64')}) refused`;
        return json(401, { error: { message: error } });
      }
      case 'redirect':
        response.writeHead(307, { location: 'http://127.0.0.1:9/steal' });
        return void response.end();
      case 'nan':
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(
          wire === 'openai' ? '{"data":[{"embedding":[NaN,1],"index":0}]}' : '{"embeddings":[[NaN,1]]}',
        );
      case 'infinite':
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(
          wire === 'openai'
            ? `{"data":[${inputs.map((_, i) => `{"embedding":[1e999,1],"index":${i}}`).join(',')}]}`
            : `{"embeddings":[${inputs.map(() => '[1e999,1]').join(',')}]}`,
        );
      case 'huge':
        return streamHuge(response);
      default:
        break;
    }
    let vectors = inputs.map((text) => vectorOf(text));
    if (server.mode === 'fewer') vectors = vectors.slice(0, -1);
    if (server.mode === 'ragged' && vectors.length > 1) vectors[1] = [...(vectors[1] ?? []), 1];
    if (server.mode === 'resized') vectors = inputs.map((text) => vectorOf(text, dimensions + 7));
    if (server.mode === 'zeros') vectors = vectors.map((v) => v.map(() => 0));
    if (server.mode === 'too-long') vectors = vectors.map(() => new Array<number>(100_000).fill(0.5));
    if (wire === 'openai')
      return json(200, {
        object: 'list',
        // Given out of order, as servers that batch in parallel may: the client orders by index.
        data: vectors.map((embedding, index) => ({ object: 'embedding', embedding, index })).reverse(),
        model: body.model,
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      });
    return json(200, { model: body.model, embeddings: vectors });
  }

  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  server.baseUrl = `http://127.0.0.1:${port}/v1`;
  server.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      httpServer.close(() => resolve());
    });
  return server;
}

// 64 MiB of digits, written as fast as the client reads, until it stops.
function streamHuge(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{"data":[{"embedding":[');
  const piece = `${'0.123456789,'.repeat(8191)}0.1],"index":0},{"embedding":[`;
  let left = 64 * 1024 * 1024;
  const write = (): void => {
    while (left > 0 && !response.destroyed) {
      left -= piece.length;
      if (!response.write(piece)) return void response.once('drain', write);
    }
    response.end();
  };
  response.on('error', () => undefined);
  write();
}
