// First run through browser mode: with no provider chosen the app says so (the renderer then shows its Welcome page);
// "Test connection" lists a local server's models through main, with the stored key and never its value; saving a
// provider ends the first run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../preload/contract';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { webFixture } from './testing/web-fixture';
import { startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';

let fixture: WebFixture;
let client: TestClient;
const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };
const CANARY = 'first-run-canary-key-5521';

beforeAll(async () => {
  delete process.env.DBUS_SESSION_BUS_ADDRESS;
  delete process.env.DISPLAY;
  fixture = await webFixture({
    // A fresh home: no settings.json at all; a key already in the fallback secrets file.
    prepare: (home) => {
      fs.rmSync(path.join(home, 'desktop', 'settings.json'));
      fs.writeFileSync(
        path.join(home, '.secrets'),
        `CUSTOM_API_KEY=${CANARY}\nFIRST_RUN_KEY=other-secret-77\n`,
        {
          mode: 0o600,
        },
      );
    },
  });
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
  if (saved.bus !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = saved.bus;
  if (saved.display !== undefined) process.env.DISPLAY = saved.display;
});

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('browser mode: first run', () => {
  it('reports no provider chosen, with every provider’s preset to prefill the Welcome page', async () => {
    const settings = value(await client.bridge.api.invoke('settings.get', {}));
    expect(settings.configured).toBe(false);
    expect(settings.presets.map((p) => p.label)).toEqual([
      'Anthropic',
      'OpenAI',
      'OpenRouter',
      'DeepSeek',
      'Ollama',
      'LM Studio',
      'OpenAI-compatible (custom)',
    ]);
    expect(settings.presets.find((p) => p.kind === 'ollama')).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKeyName: null,
    });
  });

  it('lists the models of a loopback server with the stored key; the key never comes back', async () => {
    fixture.provider.models = ['local-a', 'local-b'];
    const listed = value(
      await client.bridge.api.invoke('provider.models', {
        provider: 'custom',
        baseUrl: fixture.provider.baseUrl,
        apiKeyName: 'CUSTOM_API_KEY',
      }),
    );
    expect(listed).toEqual({ url: `${fixture.provider.baseUrl}/models`, models: ['local-a', 'local-b'] });
    expect(fixture.provider.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(JSON.stringify(client.events)).not.toContain(CANARY);
  });

  it('says what went wrong in words, and refuses a request that is not a provider or key name', async () => {
    const closed = await startOpenAiTestServer();
    await closed.close();
    const refused = await client.bridge.api.invoke('provider.models', {
      provider: 'ollama',
      baseUrl: closed.baseUrl,
      apiKeyName: null,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    if (!refused.ok) expect(refused.error.message).toMatch(/connection refused\): is the server running\?/);
    expect(
      await client.bridge.api.invoke('provider.models', {
        provider: 'gemini' as never,
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKeyName: null,
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(
      await client.bridge.api.invoke('provider.models', {
        provider: 'custom',
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKeyName: 'not a key; rm -rf',
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('never sends a secret that is not a provider key: a stored token cannot be aimed at another server', async () => {
    const attacker = await startOpenAiTestServer();
    try {
      const aimed = await client.bridge.api.invoke('provider.models', {
        provider: 'custom',
        baseUrl: attacker.baseUrl,
        apiKeyName: 'FIRST_RUN_KEY',
      });
      // FIRST_RUN_KEY is neither custom's key (CUSTOM_API_KEY) nor the one settings.json names.
      expect(aimed).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
      if (!aimed.ok) expect(aimed.error.message).toContain('Test connection sends only CUSTOM_API_KEY');
      expect(attacker.requests).toEqual([]);
    } finally {
      await attacker.close();
    }
  });

  it('saving a provider and a model ends the first run, and a turn then reaches that server', async () => {
    const saved = value(
      await client.bridge.api.invoke('settings.save', {
        provider: 'custom',
        baseUrl: fixture.provider.baseUrl,
        model: 'local-b',
        apiKeyName: null,
      }),
    );
    expect(saved).toMatchObject({ configured: true, problem: null, provider: 'custom', model: 'local-b' });
  });

  it('a provider saved without a model names the problem instead of failing the settings screen', async () => {
    fs.writeFileSync(path.join(fixture.home, 'desktop', 'settings.json'), '{"provider": "lmstudio"}');
    const settings = value(await client.bridge.api.invoke('settings.get', {}));
    expect(settings.configured).toBe(true);
    expect(settings.problem).toMatch(/has no default model/);
  });
});
