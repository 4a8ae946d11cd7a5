// The non-chat channels through browser mode: tools, MCP, rules, settings, secrets, tasks and chat management.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture, writeScript } from './testing/web-fixture';

let fixture: WebFixture;
let client: TestClient;
const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };

beforeAll(async () => {
  delete process.env.DBUS_SESSION_BUS_ADDRESS;
  delete process.env.DISPLAY;
  fixture = await webFixture({
    prepare: (home) =>
      writeScript(
        home,
        'shout',
        // A tool that breaks the design rules: it loads, with its findings shown.
        { name: 'Shout', description: 'shouts', parameters: { type: 'object', properties: {} } },
        'console.log("HI")',
      ),
  });
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
  if (saved.bus !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = saved.bus;
  if (saved.display !== undefined) process.env.DISPLAY = saved.display;
});

describe('browser mode: app channels', () => {
  it('tools.list: every tool in the shape of docs/tools.md, lint findings and the headless mark', async () => {
    const tools = value(await client.bridge.api.invoke('tools.list', {}));
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(tools.find((tool) => tool.name === 'ask_user')).toMatchObject({
      source: 'builtin',
      origin: null,
      flags: { alwaysAllow: true },
      timeoutMs: null,
      offeredHeadless: true,
    });
    expect(tools.find((tool) => tool.name === 'background_command')).toMatchObject({
      flags: { background: true },
      offeredHeadless: false,
    });
    const shout = tools.find((tool) => tool.name === 'script_Shout');
    expect(shout?.source).toBe('script');
    expect(shout?.lint.some((finding) => finding.code.startsWith('R1_') && finding.level === 'error')).toBe(
      true,
    );
  });

  it('mcp.list and mcp.reconnect of an unknown server', async () => {
    expect(value(await client.bridge.api.invoke('mcp.list', {}))).toEqual({ servers: [], problems: [] });
    expect(await client.bridge.api.invoke('mcp.reconnect', { name: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('rules.list shows the visible defaults; rules.revoke removes one and says so', async () => {
    const { rules, problem } = value(await client.bridge.api.invoke('rules.list', {}));
    expect(problem).toBeNull();
    const rule = rules.find((r) => r.origin === 'default' && r.tool === 'run_command');
    expect(rule).toBeDefined();
    const revoked = value(await client.bridge.api.invoke('rules.revoke', { id: rule?.id ?? '' }));
    expect(revoked.id).toBe(rule?.id);
    const after = value(await client.bridge.api.invoke('rules.list', {}));
    expect(after.rules.map((r) => r.id)).not.toContain(rule?.id);
    expect(client.events.some((e) => e.channel === 'rules.changed')).toBe(true);
    expect(await client.bridge.api.invoke('rules.revoke', { id: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('settings: get, save (with the default workspace), and refuse bad values as invalid_settings', async () => {
    const before = value(await client.bridge.api.invoke('settings.get', {}));
    expect(before).toMatchObject({
      provider: 'openai',
      model: 'test-model',
      apiKeyName: null,
      providers: ['anthropic', 'openai', 'openrouter', 'deepseek', 'ollama', 'lmstudio', 'custom'],
      configured: true,
      problem: null,
    });
    expect(before.defaultWorkspace).toBe(fixture.workspace);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-default-ws-'));
    const saved = value(
      await client.bridge.api.invoke('settings.save', { model: 'other-model', defaultWorkspace: folder }),
    );
    expect(saved).toMatchObject({
      model: 'other-model',
      defaultWorkspace: folder,
      baseUrl: fixture.provider.baseUrl,
    });
    const chat = value(await client.bridge.api.invoke('chats.create', {}));
    expect(chat.workspace).toBe(folder);
    expect(await client.bridge.api.invoke('settings.save', { provider: 'gemini' as never })).toMatchObject({
      ok: false,
      error: { code: 'invalid_settings' },
    });
    expect(
      await client.bridge.api.invoke('settings.save', { defaultWorkspace: 'relative/dir' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    value(await client.bridge.api.invoke('settings.save', { model: 'test-model' }));
  });

  it('settings: reasoning, thinking budget and the price table saved, checked, and shown merged', async () => {
    const invoke = client.bridge.api.invoke;
    const before = value(await invoke('settings.get', {}));
    expect(before).toMatchObject({ reasoning: 'off', thinkingBudgetTokens: null });
    expect(before.prices.find((p) => p.model === 'gpt-4o-mini')).toMatchObject({ input: 0.15, output: 0.6 });
    const mine = { model: 'test-model', input: 1.5, output: 6, cacheRead: 0.15, cacheWrite: null };
    const edited = before.prices.map((p) => (p.model === 'gpt-4o' ? { ...p, input: 2 } : p));
    const saved = value(
      await invoke('settings.save', {
        reasoning: 'medium',
        thinkingBudgetTokens: 4096,
        prices: [...edited, mine],
      }),
    );
    expect(saved).toMatchObject({ reasoning: 'medium', thinkingBudgetTokens: 4096 });
    expect(saved.prices.find((p) => p.model === 'test-model')).toEqual(mine);
    expect(saved.prices.find((p) => p.model === 'gpt-4o')).toMatchObject({ input: 2 });
    // The saved table is the table: a shipped row the person removed stays removed.
    const withoutMini = saved.prices.filter((p) => p.model !== 'gpt-4o-mini');
    const trimmed = value(await invoke('settings.save', { prices: withoutMini }));
    expect(trimmed.prices.map((p) => p.model)).toEqual(withoutMini.map((p) => p.model));
    const file = JSON.parse(fs.readFileSync(path.join(fixture.home, 'desktop', 'settings.json'), 'utf8'));
    expect(file.prices).toHaveLength(withoutMini.length);
    // null goes back to the shipped table.
    const shipped = value(await invoke('settings.save', { prices: null }));
    expect(shipped.prices).toEqual(before.prices);

    // Hostile or careless values are refused in words, and nothing is saved.
    const refused = [
      { reasoning: 'maximum' },
      { thinkingBudgetTokens: 100 },
      { thinkingBudgetTokens: 1e9 },
      { thinkingBudgetTokens: 2048.5 },
      { prices: [{ model: 'x', input: -1, output: 1 }] },
      { prices: [{ model: 'x', input: 'free', output: 1 }] },
      { prices: [{ model: '', input: 1, output: 1 }] },
      { prices: [{ model: 'x', input: 1, output: 1, extra: true }] },
      { prices: [mine, mine] },
      { prices: Array.from({ length: 1001 }, (_, i) => ({ model: `m${i}`, input: 1, output: 1 })) },
      { prices: { model: 'x' } },
    ];
    for (const input of refused) {
      const result = await invoke('settings.save', input as never);
      expect(result, JSON.stringify(input).slice(0, 80)).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_settings',
          message: expect.stringMatching(/"(reasoning|thinkingBudgetTokens|prices)/),
        },
      });
    }
    expect(value(await invoke('settings.get', {}))).toMatchObject({
      reasoning: 'medium',
      thinkingBudgetTokens: 4096,
    });
    // null puts the budget back to each level's own.
    expect(
      value(await invoke('settings.save', { thinkingBudgetTokens: null, reasoning: 'off' })),
    ).toMatchObject({
      thinkingBudgetTokens: null,
      reasoning: 'off',
    });
  });

  it('chats.setReasoning sets a chat’s level and refuses anything else', async () => {
    const invoke = client.bridge.api.invoke;
    const chat = value(await invoke('chats.create', { title: 'thinking chat' }));
    expect(chat.reasoning).toBe('default');
    expect(value(await invoke('chats.setReasoning', { chatId: chat.id, reasoning: 'high' }))).toMatchObject({
      id: chat.id,
      reasoning: 'high',
    });
    expect(value(await invoke('chats.open', { chatId: chat.id })).chat.reasoning).toBe('high');
    for (const reasoning of ['max', '', null, 3, "high'; DROP TABLE chats; --"]) {
      expect(
        await invoke('chats.setReasoning', { chatId: chat.id, reasoning: reasoning as never }),
      ).toMatchObject({
        ok: false,
        error: { code: 'invalid_request' },
      });
    }
    expect(await invoke('chats.setReasoning', { chatId: 'nope', reasoning: 'low' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(value(await invoke('chats.open', { chatId: chat.id })).chat.reasoning).toBe('high');
  });

  it('chats.setModel keeps a chat’s model or null, and refuses what is no model id', async () => {
    const invoke = client.bridge.api.invoke;
    const chat = value(await invoke('chats.create', { title: 'model chat' }));
    expect(chat.model).toBeNull();
    expect(value(await invoke('chats.setModel', { chatId: chat.id, model: 'org/model:7b' }))).toMatchObject({
      id: chat.id,
      model: 'org/model:7b',
    });
    expect(value(await invoke('chats.open', { chatId: chat.id })).chat.model).toBe('org/model:7b');
    for (const model of ['', 'two words', 'x'.repeat(201), 3, undefined, 'tab\tid', 'caf\u00e9']) {
      expect(await invoke('chats.setModel', { chatId: chat.id, model: model as never })).toMatchObject({
        ok: false,
        error: { code: 'invalid_request' },
      });
    }
    expect(await invoke('chats.setModel', { chatId: 'nope', model: null })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(value(await invoke('chats.setModel', { chatId: chat.id, model: null })).model).toBeNull();
  });

  it('secrets.prompt opens the masked dialog; the key is stored and listed, never its value', async () => {
    const opened = client.dialog('secret');
    const asked = client.bridge.api.invoke('secrets.prompt', { key: 'OPENAI_API_KEY' });
    const dialog = await opened;
    expect(dialog).toMatchObject({ key: 'OPENAI_API_KEY', forTool: null });
    value(
      await client.bridge.dialogs.answerSecret({
        id: dialog.id,
        answer: { kind: 'value', value: 'sk-test-abcdef123456' },
      }),
    );
    expect(value(await asked)).toEqual({ stored: true });
    const secrets = value(await client.bridge.api.invoke('secrets.list', {}));
    expect(secrets.keys.map((k) => k.key)).toContain('OPENAI_API_KEY');
    expect(client.frames.join('\n')).not.toContain('sk-test-abcdef123456');
    expect(await client.bridge.api.invoke('secrets.prompt', { key: 'not a key' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });

  it('chats: rename, move, delete; tasks: list and cancel of an unknown task', async () => {
    const chat = value(
      await client.bridge.api.invoke('chats.create', { title: 'to manage', workspace: fixture.workspace }),
    );
    expect(
      value(await client.bridge.api.invoke('chats.rename', { chatId: chat.id, title: 'renamed' })).title,
    ).toBe('renamed');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-move-'));
    expect(
      value(await client.bridge.api.invoke('chats.setWorkspace', { chatId: chat.id, workspace: folder }))
        .workspace,
    ).toBe(folder);
    expect(
      await client.bridge.api.invoke('chats.setWorkspace', { chatId: chat.id, workspace: '/no/such/dir' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(value(await client.bridge.api.invoke('tasks.list', { chatId: chat.id }))).toEqual([]);
    expect(await client.bridge.api.invoke('tasks.cancel', { taskId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(value(await client.bridge.api.invoke('chats.delete', { chatId: chat.id }))).toEqual({
      deleted: true,
    });
    expect(await client.bridge.api.invoke('chats.open', { chatId: chat.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    const changes = client.events
      .filter((e) => e.channel === 'chat.event')
      .map((e) => e.payload as { type: string; chatId: string; chat: unknown })
      .filter((e) => e.type === 'chat.changed' && e.chatId === chat.id);
    expect(changes.at(-1)?.chat).toBeNull();
  });
});
