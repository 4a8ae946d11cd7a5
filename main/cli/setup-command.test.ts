// `agenvoy setup` in-process through main(), against a local OpenAI-compatible server: flags, the step-by-step
// questions, and every failure said in words with a non-zero status.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { main } from '../launcher/main';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { CliIo } from './io';

let server: ScriptedServer;
let home: string;

beforeAll(async () => {
  server = await startOpenAiTestServer();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-setup-'));
  server.models = ['llama3.2:latest', 'qwen3:8b'];
});

function cli(argv: string[], options: { stdin?: string; interactive?: boolean } = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    interactive: options.interactive ?? false,
    // No keychain: secrets come from the home's file or the environment.
    env: { AGENVOY_HOME: home, PATH: process.env.PATH },
    cwd: home,
  };
  return main(argv, io).then((code) => ({ code, stdout, stderr }));
}

const savedSettings = () =>
  JSON.parse(fs.readFileSync(path.join(home, 'desktop', 'settings.json'), 'utf8')) as Record<string, unknown>;

describe('agenvoy setup', () => {
  it('with flags: tests the connection, checks the model against the list, saves', async () => {
    const result = await cli([
      'setup',
      '--provider',
      'custom',
      '--base-url',
      server.baseUrl,
      '--model',
      'qwen3:8b',
      '--no-key',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Connected: 2 models listed.');
    expect(result.stdout).toMatch(
      /^saved .*settings\.json: OpenAI-compatible \(custom\) at .*, model qwen3:8b, no key\n$/,
    );
    expect(savedSettings()).toEqual({
      provider: 'custom',
      baseUrl: server.baseUrl,
      model: 'qwen3:8b',
      apiKeyName: null,
    });
    expect(server.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('takes a model name without Ollama’s :latest tag and saves the id as listed', async () => {
    const result = await cli([
      'setup',
      '--provider',
      'ollama',
      '--base-url',
      server.baseUrl,
      '--model',
      'llama3.2',
    ]);
    expect(result.code).toBe(0);
    expect(savedSettings().model).toBe('llama3.2:latest');
  });

  it('refuses a model the server does not list, naming what it lists; nothing is saved', async () => {
    const result = await cli([
      'setup',
      '--provider',
      'ollama',
      '--base-url',
      server.baseUrl,
      '--model',
      'gpt-9',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'the server does not list the model "gpt-9"; it lists: llama3.2:latest, qwen3:8b',
    );
    expect(fs.existsSync(path.join(home, 'desktop', 'settings.json'))).toBe(false);
  });

  it('says a server that is not running is not running, and exits 1', async () => {
    const closed = await startOpenAiTestServer();
    await closed.close();
    const result = await cli([
      'setup',
      '--provider',
      'lmstudio',
      '--base-url',
      closed.baseUrl,
      '--model',
      'x',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /connection failed: nothing answers at .* \(connection refused\): is the server running\?/,
    );
  });

  it('keeps the provider’s key name when the server lists its models without one', async () => {
    const result = await cli([
      'setup',
      '--provider',
      'custom',
      '--base-url',
      server.baseUrl,
      '--model',
      'qwen3:8b',
    ]);
    // The test server lists models without a key, so the missing key only matters once a server refuses: here it
    // answers, and the key name is saved for the first turn to ask for.
    expect(result.code).toBe(0);
    expect(savedSettings().apiKeyName).toBe('CUSTOM_API_KEY');
  });

  it('--no-test saves without asking the server, but needs a model where the provider has no default', async () => {
    const none = await cli(['setup', '--provider', 'ollama', '--no-test']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--no-test needs --model: Ollama has no default model');
    const saved = await cli(['setup', '--provider', 'openai', '--no-test']);
    expect(saved.code).toBe(0);
    expect(savedSettings()).toMatchObject({
      provider: 'openai',
      model: 'gpt-4.1',
      apiKeyName: 'OPENAI_API_KEY',
    });
  });

  it('usage errors: unknown provider, contradicting flags, no terminal and no flags', async () => {
    expect(await cli(['setup', '--provider', 'gemini'])).toMatchObject({ code: 2 });
    expect((await cli(['setup', '--provider', 'gemini'])).stderr).toContain(
      'unknown provider "gemini": use one of',
    );
    expect(
      (await cli(['setup', '--provider', 'openai', '--no-key', '--api-key-name', 'K'])).stderr,
    ).toContain('contradict');
    const bare = await cli(['setup']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('no terminal to ask on: give the choices as flags');
  });

  it('on a terminal: asks step by step (provider, Base URL, key, model) and saves the picked model', async () => {
    // 7: custom; the Base URL; n: no key; 2: the second listed model.
    const result = await cli(['setup'], { interactive: true, stdin: `7\n${server.baseUrl}\nn\n2\n` });
    expect(result.stderr).toContain('7. OpenAI-compatible (custom)');
    expect(result.stderr).toContain('  2. qwen3:8b');
    expect(result.code).toBe(0);
    expect(savedSettings()).toEqual({
      provider: 'custom',
      baseUrl: server.baseUrl,
      model: 'qwen3:8b',
      apiKeyName: null,
    });
  });

  it('chat before any setup points to agenvoy setup; after it, the first answer comes from the chosen server', async () => {
    const before = await cli(['chat', 'hello']);
    expect(before.code).toBe(2);
    expect(before.stderr).toContain('no model provider is set up yet: run `agenvoy setup`');
    expect(
      await cli(['setup', '--provider', 'ollama', '--base-url', server.baseUrl, '--model', 'qwen3:8b']),
    ).toMatchObject({ code: 0 });
    server.enqueue({ events: openAiEvents([{ text: 'hi from qwen' }]) });
    const after = await cli(['chat', 'hello', '--approve', 'deny']);
    expect(after.stdout).toContain('hi from qwen');
    expect(after.code).toBe(0);
    const request = server.requests.at(-1);
    expect(request?.body.model).toBe('qwen3:8b');
    expect(request?.headers.authorization).toBeUndefined();
  });
});
