import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic';
import { createProvider } from './create-provider';
import { OpenAiProvider } from './openai';
import { anthropicEvents, startAnthropicTestServer } from './testing/anthropic-test-server';
import { collectStream } from './testing/collect-stream';
import { openAiEvents, startOpenAiTestServer } from './testing/openai-test-server';
import type { ScriptedServer } from './testing/scripted-server';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const request = {
  model: 'm',
  system: '',
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
  tools: [],
};

describe('createProvider', () => {
  it('builds the provider the settings name, pointed at their base URL with the given key', async () => {
    const anthropic = await startAnthropicTestServer();
    const openai = await startOpenAiTestServer();
    servers.push(anthropic, openai);
    anthropic.enqueue({ events: anthropicEvents([{ text: 'from claude' }]) });
    openai.enqueue({ events: openAiEvents([{ text: 'from local' }]) });

    const a = createProvider(
      { provider: 'anthropic', baseUrl: anthropic.baseUrl, model: 'm', apiKeyName: 'ANTHROPIC_API_KEY' },
      'sk-a',
    );
    expect(a).toBeInstanceOf(AnthropicProvider);
    expect((await collectStream(a.stream(request))).text).toBe('from claude');
    expect(anthropic.requests[0]?.headers['x-api-key']).toBe('sk-a');

    const o = createProvider(
      { provider: 'openai', baseUrl: openai.baseUrl, model: 'm', apiKeyName: null },
      undefined,
    );
    expect(o).toBeInstanceOf(OpenAiProvider);
    expect((await collectStream(o.stream(request))).text).toBe('from local');
    expect(openai.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('a missing key for a named secret is an auth error naming it, so the app can ask for it', async () => {
    const provider = createProvider(
      { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKeyName: 'OPENAI_API_KEY' },
      undefined,
    );
    const result = await collectStream(provider.stream(request));
    expect(result.error).toMatchObject({ kind: 'auth', keyName: 'OPENAI_API_KEY' });
  });
});
