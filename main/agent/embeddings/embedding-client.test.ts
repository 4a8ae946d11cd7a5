// The embedding client against a local server speaking the real OpenAI and Ollama wire formats: vectors come back
// in input order and unit length; a slow, down or hostile server gives a clear EmbeddingError, never a hang, a huge
// read or the key; and which model the settings name.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingError } from '../../core/embedding-port';
import { dot } from '../../search/semantic-fusion';
import { ConfiguredEmbeddings, embeddingWire } from './configured-embeddings';
import type { EmbeddingWire } from './embedding-client';
import {
  embeddingUrl,
  HttpEmbeddingModel,
  MAX_ERROR_DETAIL,
  MAX_INPUTS,
  responseLimitBytes,
} from './embedding-client';
import type { EmbeddingServer } from './testing/embedding-server';
import { startEmbeddingServer } from './testing/embedding-server';

const CANARY = 'sk-canary-7f3e9a1c5b2d4e6f8091a2b3c4d5e6f7';
let server: EmbeddingServer;
const temps: string[] = [];

beforeAll(async () => {
  server = await startEmbeddingServer({
    dimensions: 32,
    concepts: { thirst: 'drink', beverage: 'drink', pour: 'drink' },
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.mode = 'ok';
  server.delayMs = 0;
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function model(wire: EmbeddingWire = 'openai', key: string | null = CANARY): HttpEmbeddingModel {
  return new HttpEmbeddingModel({
    wire,
    baseUrl: server.baseUrl,
    model: 'test-embed',
    keyName: key === null ? null : 'CUSTOM_API_KEY',
    getKey: async () => key ?? undefined,
  });
}

async function failure(promise: Promise<unknown>): Promise<EmbeddingError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EmbeddingError);
  return error as EmbeddingError;
}

describe('the embedding client', () => {
  it('OpenAI wire: one unit vector per text, in input order (the server answers them reversed), with the key', async () => {
    const before = server.requests.openai;
    const texts = ['quench my thirst', 'pour a beverage', 'delete a file'];
    const vectors = await model('openai').embed(texts, { timeoutMs: 5000 });
    expect(server.requests.openai).toBe(before + 1);
    expect(server.authorizations.at(-1)).toBe(`Bearer ${CANARY}`);
    expect(vectors).toHaveLength(3);
    for (const [at, vector] of vectors.entries()) {
      expect(vector).toHaveLength(32);
      expect(dot(vector, vector)).toBeCloseTo(1, 5);
      const expected = server.vectorOf(texts[at] as string);
      const norm = Math.hypot(...expected);
      expect(vector[0]).toBeCloseTo((expected[0] as number) / norm, 5);
    }
    // The stand-in model relates texts that share no word.
    expect(dot(vectors[0] as Float32Array, vectors[1] as Float32Array)).toBeGreaterThan(
      dot(vectors[0] as Float32Array, vectors[2] as Float32Array),
    );
  });

  it('Ollama wire: the native /api/embed beside the OpenAI-compatible /v1, no key sent when there is none', async () => {
    expect(embeddingUrl('ollama', 'http://127.0.0.1:11434/v1/')).toBe('http://127.0.0.1:11434/api/embed');
    expect(embeddingUrl('openai', 'https://api.openai.com/v1')).toBe('https://api.openai.com/v1/embeddings');
    const before = server.requests.ollama;
    const vectors = await model('ollama', null).embed(['one text', 'another'], { timeoutMs: 5000 });
    expect(server.requests.ollama).toBe(before + 1);
    expect(server.authorizations.at(-1)).toBe('');
    expect(vectors.map((v) => v.length)).toEqual([32, 32]);
  });

  it.each([
    ['fewer', /asked for 3 vectors, got 2/],
    ['ragged', /vectors of different lengths/],
    ['infinite', /not an embedding list/],
    ['nan', /did not answer with JSON/],
    ['zeros', /all zeros or not finite/],
    ['too-long', /not an embedding list|larger than 3 vectors can be/],
    ['error', /HTTP 500: the model crashed/],
    ['redirect', /answered with a redirect \(HTTP 307\); the key is not sent on/],
  ] as const)('a hostile answer (%s) is refused in words', async (mode, message) => {
    server.mode = mode;
    for (const wire of ['openai', 'ollama'] as const) {
      const error = await failure(model(wire).embed(['alpha', 'beta', 'gamma'], { timeoutMs: 5000 }));
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain(CANARY);
    }
  });

  it('a huge answer is cut at the bound, not read to its end', async () => {
    server.mode = 'huge';
    const started = Date.now();
    const error = await failure(model().embed(['a'], { timeoutMs: 10_000 }));
    expect(error.message).toMatch(/larger than 1 vectors can be/);
    expect(responseLimitBytes(1)).toBeLessThan(1024 * 1024);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a slow server is given up on at the limit; a stopped one is said to be unreachable', async () => {
    server.mode = 'slow';
    server.delayMs = 3000;
    const started = Date.now();
    const slow = await failure(model().embed(['a'], { timeoutMs: 200 }));
    expect(slow.message).toBe('test-embed at ' + new URL(server.baseUrl).host + ': no answer within 0.2 s');
    expect(Date.now() - started).toBeLessThan(1500);
    const gone = await startEmbeddingServer();
    const baseUrl = gone.baseUrl;
    await gone.close();
    const down = new HttpEmbeddingModel({
      wire: 'openai',
      baseUrl,
      model: 'm',
      keyName: null,
      getKey: async () => undefined,
    });
    expect((await failure(down.embed(['a'], { timeoutMs: 2000 }))).message).toMatch(
      /cannot reach .*ECONNREFUSED/,
    );
  });

  it('the key never appears in an error, even when the server echoes it back', async () => {
    server.mode = 'echo-key';
    const error = await failure(model().embed(['a'], { timeoutMs: 5000 }));
    expect(error.message).toContain('refused the API key CUSTOM_API_KEY');
    expect(error.message).not.toContain(CANARY);
    expect(error.message).toContain('[redacted:CUSTOM_API_KEY]');
    expect(JSON.stringify(error)).not.toContain(CANARY);
    expect(String(error.stack)).not.toContain(CANARY);
    server.mode = 'echo-key-forms';
    const forms = await failure(model().embed(['a'], { timeoutMs: 5000 }));
    expect(forms.message).toContain('token [redacted:CUSTOM_API_KEY] ([redacted:CUSTOM_API_KEY]) refused');
  });

  it('a cancelled call rejects with its reason; too many texts are refused before any request', async () => {
    server.mode = 'slow';
    server.delayMs = 2000;
    const controller = new AbortController();
    const call = model().embed(['a'], { timeoutMs: 5000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(call).rejects.toThrow('stop');
    const before = server.requests.openai;
    await failure(model().embed(new Array(MAX_INPUTS + 1).fill('x'), { timeoutMs: 1000 }));
    expect(server.requests.openai).toBe(before);
  });

  it('a huge error body is cut to a short detail, and a key it echoes is scrubbed before the cut', async () => {
    server.mode = 'huge-error';
    for (const wire of ['openai', 'ollama'] as const) {
      const error = await failure(model(wire).embed(['a'], { timeoutMs: 5000 }));
      expect(error.message).toMatch(/HTTP 500: e{280} Bearer \[redacted/);
      expect(error.message.length).toBeLessThan(MAX_ERROR_DETAIL + 100);
      expect(error.message).toContain('characters cut]');
      // Not even the start of the key, which a cut before the scrub would have left.
      expect(error.message).not.toContain(CANARY.slice(0, 8));
    }
  });

  describe('a base URL with a user name and password', () => {
    const USER = 'canaryuser7q';
    const PASSWORD = 'canarypw9x';
    const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
    const withCredentials = (url: string) => url.replace('http://', `http://${USER}:${PASSWORD}@`);
    const basic = (baseUrl: string, wire: EmbeddingWire = 'openai') =>
      new HttpEmbeddingModel({ wire, baseUrl, model: 'm', keyName: null, getKey: async () => undefined });
    const clean = (text: string) => {
      for (const secret of [USER, PASSWORD, BASIC, encodeURIComponent(PASSWORD)])
        expect(text).not.toContain(secret);
    };

    it('sends them as Basic authorization, never in the URL, and prints them nowhere', async () => {
      const vectors = await basic(withCredentials(server.baseUrl)).embed(['one'], { timeoutMs: 5000 });
      expect(vectors).toHaveLength(1);
      expect(server.authorizations.at(-1)).toBe(`Basic ${BASIC}`);
      const messages: string[] = [];
      for (const mode of ['error', 'echo-key', 'redirect', 'nan', 'huge-error'] as const) {
        server.mode = mode;
        for (const wire of ['openai', 'ollama'] as const)
          messages.push(
            (await failure(basic(withCredentials(server.baseUrl), wire).embed(['a'], { timeoutMs: 5000 })))
              .message,
          );
      }
      server.mode = 'ok';
      // A 404 names the address.
      const missing = basic(withCredentials(server.baseUrl.replace('/v1', '/nowhere/v1')));
      messages.push((await failure(missing.embed(['a'], { timeoutMs: 5000 }))).message);
      expect(messages.at(-1)).toMatch(/HTTP 404 at http:\/\/127\.0\.0\.1:\d+\/nowhere\/v1\/embeddings/);
      // A server that is down: undici's own words.
      const gone = await startEmbeddingServer();
      const goneUrl = gone.baseUrl;
      await gone.close();
      messages.push(
        (await failure(basic(withCredentials(goneUrl)).embed(['a'], { timeoutMs: 2000 }))).message,
      );
      expect(messages.at(-1)).toMatch(/cannot reach .*ECONNREFUSED/);
      // Not a URL at all.
      let construction = '';
      try {
        basic(`http://${USER}:${PASSWORD}@127.0.0.1:99999999/v1`);
      } catch (error) {
        construction = (error as Error).message;
      }
      expect(construction).toMatch(/not a URL/);
      messages.push(construction);
      const model = basic(withCredentials(server.baseUrl));
      messages.push(model.id, model.label);
      for (const message of messages) clean(message);
    });

    it('with an API key as well, is refused in words (both would be the Authorization header)', () => {
      const both = () =>
        new HttpEmbeddingModel({
          wire: 'openai',
          baseUrl: withCredentials(server.baseUrl),
          model: 'm',
          keyName: 'CUSTOM_API_KEY',
          getKey: async () => CANARY,
        });
      expect(both).toThrow(/user name and password.*apiKeyName/);
      try {
        both();
      } catch (error) {
        clean((error as Error).message);
      }
    });
  });

  it('a key look-up that hung or failed is asked again next time, not kept', async () => {
    let calls = 0;
    const answers: Array<() => Promise<string | undefined>> = [
      () => new Promise(() => undefined),
      () => Promise.reject(new Error('keychain locked')),
      async () => CANARY,
    ];
    const flaky = new HttpEmbeddingModel({
      wire: 'openai',
      baseUrl: server.baseUrl,
      model: 'm',
      keyName: 'K',
      getKey: () => (answers[calls++] as () => Promise<string | undefined>)(),
    });
    await failure(flaky.embed(['a'], { timeoutMs: 100 }));
    await flaky.embed(['alpha'], { timeoutMs: 2000 });
    expect(server.authorizations.at(-1)).toBe('');
    await flaky.embed(['alpha'], { timeoutMs: 2000 });
    expect(calls).toBe(3);
    expect(server.authorizations.at(-1)).toBe(`Bearer ${CANARY}`);
    // A key found is kept.
    await flaky.embed(['alpha'], { timeoutMs: 2000 });
    expect(calls).toBe(3);
  });

  it('a key look-up that hangs is bounded by the same limit', async () => {
    const hanging = new HttpEmbeddingModel({
      wire: 'openai',
      baseUrl: server.baseUrl,
      model: 'm',
      keyName: 'K',
      getKey: () => new Promise(() => undefined),
    });
    expect((await failure(hanging.embed(['a'], { timeoutMs: 100 }))).message).toMatch(
      /key look-up took too long/,
    );
  });
});

describe('the configured embedding model', () => {
  function home(settings: unknown): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-embed-'));
    temps.push(dir);
    if (settings !== undefined) {
      fs.mkdirSync(path.join(dir, 'desktop'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'desktop', 'settings.json'), JSON.stringify(settings));
    }
    return dir;
  }
  const source = (dir: string) =>
    new ConfiguredEmbeddings({ home: dir, env: {}, getSecret: async () => CANARY });

  it('off without settings.json, without search.embeddingModel, or with it empty', async () => {
    expect(await source(home(undefined)).current()).toEqual({ kind: 'off' });
    expect(await source(home({ provider: 'openai' })).current()).toEqual({ kind: 'off' });
    expect(await source(home({ provider: 'openai', search: { embeddingModel: ' ' } })).current()).toEqual({
      kind: 'off',
    });
  });

  it('the provider decides the wire; Anthropic has none, and says so', async () => {
    expect(embeddingWire('ollama')).toBe('ollama');
    expect(embeddingWire('openrouter')).toBe('openai');
    const anthropic = await source(
      home({ provider: 'anthropic', search: { embeddingModel: 'x' } }),
    ).current();
    expect(anthropic).toEqual({
      kind: 'unavailable',
      reason: expect.stringContaining('the provider Anthropic has no embeddings API'),
    });
    const dir = home({ provider: 'ollama', baseUrl: server.baseUrl, search: { embeddingModel: 'nomic' } });
    const ollama = await source(dir).current();
    expect(ollama.kind).toBe('ready');
    if (ollama.kind !== 'ready') return;
    expect(ollama.model.id).toBe(`ollama http://${new URL(server.baseUrl).host}/api/embed nomic`);
    const before = server.requests.ollama;
    await ollama.model.embed(['xyz'], { timeoutMs: 5000 });
    expect(server.requests.ollama).toBe(before + 1);
  });

  it('an edit of settings.json applies at the next search', async () => {
    const dir = home({ provider: 'custom', baseUrl: server.baseUrl });
    const configured = source(dir);
    expect((await configured.current()).kind).toBe('off');
    const file = path.join(dir, 'desktop', 'settings.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ provider: 'custom', baseUrl: server.baseUrl, search: { embeddingModel: 'e5' } }),
    );
    // A later mtime, as a person's edit would have.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    const ready = await configured.current();
    expect(ready.kind).toBe('ready');
    if (ready.kind === 'ready') expect(ready.model.label).toBe(`e5 at ${new URL(server.baseUrl).host}`);
  });

  it('an edit of the same size within one tick of the file clock is not missed', async () => {
    const settings = (model: string) => ({
      provider: 'custom',
      baseUrl: server.baseUrl,
      search: { embeddingModel: model },
    });
    const dir = home(settings('aa'));
    const file = path.join(dir, 'desktop', 'settings.json');
    // A whole second: a time utimes can set back exactly.
    const tick = new Date(Math.floor(Date.now() / 1000) * 1000);
    fs.utimesSync(file, tick, tick);
    const configured = source(dir);
    const first = await configured.current();
    expect(first.kind === 'ready' && first.model.label).toMatch(/^aa at/);
    // Same inode, same size, same mtime: all a coarse clock lets two quick writes differ by.
    fs.writeFileSync(file, JSON.stringify(settings('bb')));
    fs.utimesSync(file, tick, tick);
    const second = await configured.current();
    expect(second.kind === 'ready' && second.model.label).toMatch(/^bb at/);
  });
});
