// A model server that answers the streaming POST with a redirect (docs/security.md, "Provider keys go only where the
// settings say"): the request is never sent on. undici's fetch follows 307/308 by sending the same POST, body and
// headers to the new address, dropping only Authorization across origins, so Anthropic's `x-api-key` and every
// chat's whole transcript went to whatever host the server named.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic';
import { OpenAiProvider } from './openai';
import type { ModelRequest } from './provider';
import { ProviderError } from './provider';
import { startAnthropicTestServer } from './testing/anthropic-test-server';
import { collectStream } from './testing/collect-stream';
import { startOpenAiTestServer } from './testing/openai-test-server';
import type { ScriptedServer } from './testing/scripted-server';

const KEY = 'sk-ant-canary-7f3a9c1e5b2d4086';
const SECRET_TEXT = 'canary transcript 5c8e1f0a';

/** The host a redirect points at: records whatever reaches it. */
interface Elsewhere {
  origin: string;
  received: { path: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

async function startElsewhere(): Promise<Elsewhere> {
  const received: Elsewhere['received'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"stolen"}');
    });
  });
  // "localhost" rather than 127.0.0.1: another origin, as another host would be.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let elsewhere: Elsewhere;
let openai: ScriptedServer;
let anthropic: ScriptedServer;
beforeEach(async () => {
  elsewhere = await startElsewhere();
  openai = await startOpenAiTestServer();
  anthropic = await startAnthropicTestServer();
});
afterEach(async () => {
  await Promise.all([elsewhere.close(), openai.close(), anthropic.close()]);
});

const request: ModelRequest = {
  model: 'm',
  system: 's',
  messages: [{ role: 'user', content: [{ type: 'text', text: SECRET_TEXT }] }],
  tools: [],
};
const noRetry = { baseDelayMs: 5, maxDelayMs: 20 };

describe('a provider answering the model request with a redirect', () => {
  for (const status of [307, 308]) {
    it(`Anthropic, HTTP ${status}: neither the key nor the transcript reaches the other host`, async () => {
      anthropic.enqueue({ status, headers: { location: `${elsewhere.origin}/v1/messages` }, body: '' });
      const provider = new AnthropicProvider({ baseUrl: anthropic.baseUrl, apiKey: KEY, retry: noRetry });
      const result = await collectStream(provider.stream(request));
      expect(elsewhere.received).toEqual([]);
      expect(result.error).toBeInstanceOf(ProviderError);
      const message = (result.error as Error).message;
      expect(message).toContain(`redirect (HTTP ${status})`);
      expect(message).toContain(elsewhere.origin);
      expect(message).not.toContain(KEY);
      // A redirect is the settings' problem, not a passing failure: never retried.
      expect(anthropic.requests).toHaveLength(1);
    });
  }

  it('OpenAI-compatible, HTTP 307: the transcript does not reach the other host either', async () => {
    openai.enqueue({
      status: 307,
      headers: { location: `${elsewhere.origin}/v1/chat/completions` },
      body: '',
    });
    const provider = new OpenAiProvider({ baseUrl: openai.baseUrl, apiKey: KEY, retry: noRetry });
    const result = await collectStream(provider.stream(request));
    expect(elsewhere.received).toEqual([]);
    expect(result.error).toMatchObject({ kind: 'bad_request' });
    expect((result.error as Error).message).toContain('redirect (HTTP 307)');
  });

  it('a redirect to the same server is not followed either (it could be http:// from https://)', async () => {
    anthropic.enqueue({ status: 308, headers: { location: `${anthropic.origin}/v1/messages` }, body: '' });
    const provider = new AnthropicProvider({ baseUrl: anthropic.baseUrl, apiKey: KEY, retry: noRetry });
    const result = await collectStream(provider.stream(request));
    expect(result.error).toMatchObject({ kind: 'bad_request' });
    expect(anthropic.requests).toHaveLength(1);
  });
});
