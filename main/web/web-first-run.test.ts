// First run through browser mode: with no provider chosen the app says so (the renderer then shows its Welcome page);
// "Test connection" lists a local server's models through main, with the stored key and never its value; saving a
// provider ends the first run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture } from './testing/web-fixture';
import { openAiEvents, startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';

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

  it('lists the models of a loopback server with the stored key once the person confirms sending it there', async () => {
    fixture.provider.models = ['local-a', 'local-b'];
    const asked = client.dialog('question');
    const pending = client.bridge.api.invoke('provider.models', {
      provider: 'custom',
      baseUrl: fixture.provider.baseUrl,
      apiKeyName: 'CUSTOM_API_KEY',
    });
    const dialog = await asked;
    const send = `Send CUSTOM_API_KEY to ${fixture.provider.origin}`;
    expect(dialog.questions[0]?.options).toEqual([send, 'Do not send']);
    // Nothing was sent before the answer.
    expect(fixture.provider.requests).toEqual([]);
    value(
      await client.bridge.dialogs.answerQuestion({
        id: dialog.id,
        answer: { kind: 'answered', answers: { 'send-key': send } },
      }),
    );
    expect(value(await pending)).toEqual({
      url: `${fixture.provider.baseUrl}/models`,
      models: ['local-a', 'local-b'],
    });
    expect(fixture.provider.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(JSON.stringify(client.events)).not.toContain(CANARY);
    // Confirmed once, remembered while the host runs: no second question.
    const again = value(
      await client.bridge.api.invoke('provider.models', {
        provider: 'custom',
        baseUrl: fixture.provider.baseUrl,
        apiKeyName: 'CUSTOM_API_KEY',
      }),
    );
    expect(again.models).toEqual(['local-a', 'local-b']);
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

  it('a stored token cannot be aimed at another server, neither by Test connection nor by saving settings', async () => {
    const attacker = await startOpenAiTestServer();
    const refuse = async () => {
      const dialog = await client.dialog('question');
      expect(dialog.questions[0]?.prompt).toContain(
        `Send the API key stored as FIRST_RUN_KEY to ${attacker.origin}?`,
      );
      value(
        await client.bridge.dialogs.answerQuestion({
          id: dialog.id,
          answer: { kind: 'answered', answers: { 'send-key': 'Do not send' } },
        }),
      );
    };
    try {
      // 1. Test connection straight at it: the person is asked, says no, nothing is sent.
      const [aimed] = await Promise.all([
        client.bridge.api.invoke('provider.models', {
          provider: 'custom',
          baseUrl: attacker.baseUrl,
          apiKeyName: 'FIRST_RUN_KEY',
        }),
        refuse(),
      ]);
      expect(aimed).toMatchObject({ ok: false, error: { code: 'declined' } });
      // 2. Saving the pair first (so that "the saved settings" would vouch for it): asked too, and not saved.
      const [saved] = await Promise.all([
        client.bridge.api.invoke('settings.save', {
          provider: 'custom',
          baseUrl: attacker.baseUrl,
          model: 'x',
          apiKeyName: 'FIRST_RUN_KEY',
        }),
        refuse(),
      ]);
      expect(saved).toMatchObject({ ok: false, error: { code: 'declined' } });
      expect(fs.existsSync(path.join(fixture.home, 'desktop', 'settings.json'))).toBe(false);
      // 3. A provider's own key to its own address needs no question (and goes nowhere else).
      expect(attacker.requests).toEqual([]);
      expect(JSON.stringify(client.events)).not.toContain('other-secret-77');
    } finally {
      await attacker.close();
    }
  });

  it('saving a provider and a model ends the first run, and a turn then reaches that server', async () => {
    fixture.provider.enqueue({ events: openAiEvents([{ text: 'first answer' }]) });
    const saved = value(
      await client.bridge.api.invoke('settings.save', {
        provider: 'custom',
        baseUrl: fixture.provider.baseUrl,
        model: 'local-b',
        apiKeyName: null,
      }),
    );
    expect(saved).toMatchObject({ configured: true, problem: null, provider: 'custom', model: 'local-b' });
    const chat = value(await client.bridge.api.invoke('chats.create', {}));
    value(await client.bridge.api.invoke('turn.send', { chatId: chat.id, text: 'hello' }));
    await client.chatEvent('turn.finished', (e) => e.chatId === chat.id);
    const request = fixture.provider.requests.at(-1);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request?.body.model).toBe('local-b');
  });

  it('a provider saved without a model names the problem instead of failing the settings screen', async () => {
    fs.writeFileSync(path.join(fixture.home, 'desktop', 'settings.json'), '{"provider": "lmstudio"}');
    const settings = value(await client.bridge.api.invoke('settings.get', {}));
    expect(settings.configured).toBe(true);
    expect(settings.problem).toMatch(/has no default model/);
  });
});
