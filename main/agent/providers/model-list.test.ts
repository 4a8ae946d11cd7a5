// "Test connection" against real local servers speaking both wire formats, and the failures a person meets first: a
// server not running, a wrong Base URL, a refused or missing key, an answer that is no model list.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicTestServer } from './testing/anthropic-test-server';
import { startOpenAiTestServer } from './testing/openai-test-server';
import type { ScriptedServer } from './testing/scripted-server';
import { listModels, modelListUrl } from './model-list';

let openai: ScriptedServer;
let anthropic: ScriptedServer;
let odd: http.Server;
let oddOrigin: string;

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startOpenAiTestServer(), startAnthropicTestServer()]);
  // Answers by path: /html an HTML page, /shape JSON that is no model list, /401 a refusal, /slow never.
  odd = http.createServer((req, res) => {
    if (req.url?.startsWith('/html'))
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hi</h1>');
    if (req.url?.startsWith('/shape')) return res.end(JSON.stringify({ models: [{ name: 'x' }] }));
    if (req.url?.startsWith('/401')) return res.writeHead(401).end(JSON.stringify({ error: 'bad key' }));
    if (req.url?.startsWith('/empty')) return res.end(JSON.stringify({ data: [] }));
    // /echo: refuses and repeats the key it was sent, and lists it as a model (a hostile or careless server).
    if (req.url?.startsWith('/echo/401')) {
      return res
        .writeHead(401)
        .end(JSON.stringify({ error: `Incorrect API key provided: ${req.headers.authorization}` }));
    }
    // /echo-forms/401: repeats it upper-cased and in base64, as a careless server's error may.
    if (req.url?.startsWith('/echo-forms/401')) {
      const key = String(req.headers.authorization).replace('Bearer ', '');
      const error = `key ${key.toUpperCase()} or ${Buffer.from(key).toString('base64')} refused`;
      return res.writeHead(401).end(JSON.stringify({ error }));
    }
    // /echo-cut/401: the same, padded so that the app's cut of a long message falls inside the key.
    if (req.url?.startsWith('/echo-cut/401')) {
      const pad = 'x'.repeat(2000 - 'Bearer '.length - 10);
      return res.writeHead(401).end(JSON.stringify({ error: `${pad}${req.headers.authorization}` }));
    }
    if (req.url?.startsWith('/echo')) {
      const key = String(req.headers.authorization).replace('Bearer ', '');
      const data = [
        key,
        `prefix-${key}`,
        key.toUpperCase(),
        Buffer.from(key).toString('base64'),
        'fine-model',
      ];
      return res.end(JSON.stringify({ data: data.map((id) => ({ id })) }));
    }
    // /redirect: sends the client to another origin.
    if (req.url?.startsWith('/redirect')) {
      return res.writeHead(302, { location: 'http://127.0.0.1:1/v1/models' }).end();
    }
    // /many: 5,001 models, one with an id too long to be one, one without an id.
    if (req.url?.startsWith('/many')) {
      const data: unknown[] = Array.from({ length: 5001 }, (_, i) => ({ id: `m-${i}` }));
      data.unshift({ id: 'x'.repeat(600) }, { name: 'no id' });
      return res.end(JSON.stringify({ data }));
    }
    // /slow: never answers.
  });
  await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
  oddOrigin = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all([openai?.close(), anthropic?.close()]);
  odd?.closeAllConnections();
  await new Promise((resolve) => odd?.close(resolve));
});

describe('listModels', () => {
  it('lists an OpenAI-compatible server’s models exactly as it names them, with the key as a Bearer token', async () => {
    openai.models = ['qwen2.5:7b-instruct', 'llama3.2:latest', 'Some/Model-Name'];
    const result = await listModels({ wire: 'openai', baseUrl: openai.baseUrl, apiKey: 'k-1', keyName: 'K' });
    expect(result).toEqual({
      ok: true,
      url: `${openai.baseUrl}/models`,
      models: ['qwen2.5:7b-instruct', 'llama3.2:latest', 'Some/Model-Name'],
    });
    const request = openai.requests.at(-1);
    expect(request).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(request?.headers.authorization).toBe('Bearer k-1');
  });

  it('sends no key header when the server takes none', async () => {
    await listModels({ wire: 'openai', baseUrl: `${openai.baseUrl}/`, apiKey: null, keyName: null });
    expect(openai.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('asks Anthropic at /v1/models with x-api-key and the API version', async () => {
    anthropic.models = ['claude-sonnet-4-6', 'claude-haiku-4-5'];
    const result = await listModels({
      wire: 'anthropic',
      baseUrl: anthropic.baseUrl,
      apiKey: 'a-2',
      keyName: 'A',
    });
    expect(result).toMatchObject({ ok: true, models: ['claude-sonnet-4-6', 'claude-haiku-4-5'] });
    const request = anthropic.requests.at(-1);
    expect(request?.path).toBe('/v1/models');
    expect(request?.headers['x-api-key']).toBe('a-2');
    expect(request?.headers['anthropic-version']).toBeTruthy();
    expect(modelListUrl('anthropic', 'https://api.anthropic.com/')).toBe(
      'https://api.anthropic.com/v1/models?limit=1000',
    );
  });

  it('says in words when nothing runs at the address', async () => {
    const closed = await startOpenAiTestServer();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const result = await listModels({ wire: 'openai', baseUrl, apiKey: null, keyName: null });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatch(
        /nothing answers at 127\.0\.0\.1:\d+ \(connection refused\): is the server running\?/,
      );
  });

  it('names a wrong Base URL (404) and hints at /v1', async () => {
    openai.models = null;
    const result = await listModels({ wire: 'openai', baseUrl: openai.origin, apiKey: null, keyName: null });
    openai.models = ['test-model'];
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) {
      expect(result.error).toContain('HTTP 404');
      expect(result.error).toContain('check the Base URL');
      expect(result.error).toContain('usually end in /v1');
    }
  });

  it('tells a refused key from a missing one and from a server that needs one', async () => {
    const base = `${oddOrigin}/401`;
    const refused = await listModels({ wire: 'openai', baseUrl: base, apiKey: 'wrong', keyName: 'MY_KEY' });
    const missing = await listModels({ wire: 'openai', baseUrl: base, apiKey: null, keyName: 'MY_KEY' });
    const none = await listModels({ wire: 'openai', baseUrl: base, apiKey: null, keyName: null });
    expect(refused.ok || refused.error).toMatch(/HTTP 401: it refused the API key MY_KEY \(bad key\)/);
    expect(missing.ok || missing.error).toMatch(/it needs an API key and MY_KEY is not stored yet/);
    expect(none.ok || none.error).toMatch(/it needs an API key and none is set/);
    // The key's value is never part of a message.
    expect(JSON.stringify(refused)).not.toContain('wrong');
  });

  it('never returns the key, even when the server echoes it in an error or lists it as a model', async () => {
    const key = 'sk-echo-canary-8812';
    const refused = await listModels({
      wire: 'openai',
      baseUrl: `${oddOrigin}/echo/401`,
      apiKey: key,
      keyName: 'K',
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toContain('Incorrect API key provided: Bearer [redacted:K]');
    const listed = await listModels({
      wire: 'openai',
      baseUrl: `${oddOrigin}/echo`,
      apiKey: key,
      keyName: 'K',
    });
    expect(listed).toMatchObject({ ok: true, models: ['fine-model'] });
    expect(JSON.stringify([refused, listed])).not.toContain(key);
    const forms = await listModels({
      wire: 'openai',
      baseUrl: `${oddOrigin}/echo-forms/401`,
      apiKey: key,
      keyName: 'K',
    });
    expect(forms).toMatchObject({
      ok: false,
      error: expect.stringContaining('key [redacted:K] or [redacted:K]'),
    });
  });

  it('leaves no piece of the key where it cuts a long echoed message inside it', async () => {
    const key = 'sk-echo-canary-8812-long-enough-to-cut';
    const refused = await listModels({
      wire: 'openai',
      baseUrl: `${oddOrigin}/echo-cut/401`,
      apiKey: key,
      keyName: 'K',
    });
    expect(refused.ok).toBe(false);
    const error = refused.ok ? '' : refused.error;
    expect(error.includes('Bearer [redacted:K] [output truncated:')).toBe(true);
    expect(error.includes(key.slice(0, 4))).toBe(false);
  });

  it('never follows a redirect, so x-api-key cannot be carried to another origin', async () => {
    const result = await listModels({
      wire: 'anthropic',
      baseUrl: `${oddOrigin}/redirect`,
      apiKey: 'a-3',
      keyName: 'A',
    });
    expect(result).toMatchObject({ ok: false, answered: true });
    if (!result.ok) {
      expect(result.error).toContain('answered with a redirect (HTTP 302) to http://127.0.0.1:1/v1/models');
      expect(result.error).toContain('the key is not sent on');
    }
  });

  it('keeps the first 5,000 usable ids of a long list, skipping entries that are no model id', async () => {
    const result = await listModels({
      wire: 'openai',
      baseUrl: `${oddOrigin}/many`,
      apiKey: null,
      keyName: null,
    });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.models).toHaveLength(5000);
      expect(result.models[0]).toBe('m-0');
      expect(result.models.at(-1)).toBe('m-4999');
    }
  });

  it('refuses an answer that is no model list, an empty list, a non-http address and a bad URL', async () => {
    const html = await listModels({
      wire: 'openai',
      baseUrl: `${oddOrigin}/html`,
      apiKey: null,
      keyName: null,
    });
    const shape = await listModels({
      wire: 'openai',
      baseUrl: `${oddOrigin}/shape`,
      apiKey: null,
      keyName: null,
    });
    const empty = await listModels({
      wire: 'openai',
      baseUrl: `${oddOrigin}/empty`,
      apiKey: null,
      keyName: null,
    });
    const file = await listModels({ wire: 'openai', baseUrl: 'file:///etc', apiKey: null, keyName: null });
    const bad = await listModels({ wire: 'openai', baseUrl: 'not a url', apiKey: null, keyName: null });
    expect(html.ok || html.error).toMatch(/did not answer with JSON/);
    expect(shape.ok || shape.error).toMatch(/not with a model list/);
    expect(empty.ok || empty.error).toMatch(/lists no models: load or download one/);
    expect(file.ok || file.error).toMatch(/must start with http:\/\/ or https:\/\//);
    expect(bad.ok || bad.error).toMatch(/"not a url" is not a URL/);
  });

  it('gives up on a server that never answers, within its limit', async () => {
    const started = Date.now();
    const result = await listModels({
      wire: 'openai',
      baseUrl: `${oddOrigin}/slow`,
      apiKey: null,
      keyName: null,
      timeoutMs: 300,
    });
    expect(result.ok || result.error).toMatch(/no answer from .* within 0\.3 s/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
