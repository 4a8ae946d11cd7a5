import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  loadSettings,
  loadSettingsDraft,
  PROVIDER_DEFAULTS,
  PROVIDER_KINDS,
  providerChosen,
  providerWire,
  readSettingsFile,
  saveSettings,
  SettingsError,
  settingsPath,
  settingsWarnings,
} from './settings';
import { readSettings } from './settings-file';
import { readWebSettings } from './web-settings-file';

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-settings-'));
});
afterEach(() => {
  fs.rmSync(home, { recursive: true, force: true });
});

const writeFile = (value: unknown) => {
  const file = settingsPath(home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};

describe('loadSettings', () => {
  it('defaults to Anthropic with its key name when there is no file', () => {
    expect(loadSettings({ home, env: {} })).toEqual({
      provider: 'anthropic',
      ...PROVIDER_DEFAULTS.anthropic,
    });
    expect(PROVIDER_DEFAULTS.anthropic.apiKeyName).toBe('ANTHROPIC_API_KEY');
  });

  it('reads the file, finds it through AGENVOY_HOME, and fills defaults for the chosen provider', () => {
    writeFile({ provider: 'openai', model: 'gpt-local', theme: 'dark' });
    expect(loadSettings({ env: { AGENVOY_HOME: home } })).toEqual({
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-local',
      apiKeyName: 'OPENAI_API_KEY',
    });
  });

  it('layers file < environment < flags, and null apiKeyName means no key', () => {
    writeFile({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1',
      apiKeyName: null,
    });
    const env = { AGENVOY_MODEL: 'qwen3', AGENVOY_BASE_URL: '' };
    expect(loadSettings({ home, env })).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'qwen3',
      apiKeyName: null,
    });
    expect(loadSettings({ home, env, flags: { model: 'mistral' } }).model).toBe('mistral');
  });

  it('a layer that switches provider drops the endpoint, model and key the lower layers set for the other one', () => {
    writeFile({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1',
      apiKeyName: null,
    });
    expect(loadSettings({ home, env: { AGENVOY_PROVIDER: 'anthropic' } })).toEqual({
      provider: 'anthropic',
      ...PROVIDER_DEFAULTS.anthropic,
    });
    expect(
      loadSettings({ home, env: { AGENVOY_PROVIDER: 'anthropic' }, flags: { model: 'claude-x' } }).model,
    ).toBe('claude-x');
    // Naming the same provider again keeps everything; so does naming one when the file named none.
    expect(loadSettings({ home, env: { AGENVOY_PROVIDER: 'openai' } }).baseUrl).toBe(
      'http://127.0.0.1:11434/v1',
    );
    writeFile({ model: 'gpt-4o' });
    expect(loadSettings({ home, env: { AGENVOY_PROVIDER: 'openai' } })).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o',
    });
  });

  it('names the file and the field of a bad value', () => {
    const file = writeFile({ provider: 'gemini' });
    expect(() => loadSettings({ home, env: {} })).toThrow(SettingsError);
    expect(() => loadSettings({ home, env: {} })).toThrow(
      `${file}: "provider" must be one of "anthropic", "openai", "openrouter", "deepseek", "ollama", "lmstudio", "custom" (got "gemini")`,
    );
    writeFile({ baseUrl: 'localhost:11434' });
    expect(() => loadSettings({ home, env: {} })).toThrow(/"baseUrl" must be an http:\/\/ or https:\/\/ URL/);
    writeFile({ apiKeyName: 'my key' });
    expect(() => loadSettings({ home, env: {} })).toThrow(/"apiKeyName" must be a key name/);
    writeFile({ model: '' });
    expect(() => loadSettings({ home, env: {} })).toThrow(/"model" must be a non-empty string/);
    writeFile('{ "provider": "openai", }');
    expect(() => loadSettings({ home, env: {} })).toThrow(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON`),
    );
    writeFile('[]');
    expect(() => readSettingsFile(file)).toThrow(/must hold a JSON object/);
  });

  it('quotes a bad value briefly, whatever its size or depth', () => {
    const file = writeFile(`{"model": ${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    expect(() => loadSettings({ home, env: {} })).toThrow(
      `${file}: "model" must be a non-empty string (got an array of 1)`,
    );
    writeFile({ provider: 'p'.repeat(5_000_000) });
    let message = '';
    try {
      loadSettings({ home, env: {} });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /"provider" must be one of "anthropic", .*, "custom" \(got "p{60}"… \(5000000 characters\)\)$/,
    );
    writeFile({ apiKeyName: { nested: true } });
    expect(() => loadSettings({ home, env: {} })).toThrow(/"apiKeyName" must be .* \(got an object\)$/);
  });

  it('names unknown top-level keys in a warning and keeps loading', () => {
    const file = writeFile({ provider: 'openai', theme: 'dark', modle: 'typo', limits: {}, web: {} });
    expect(settingsWarnings(file)).toEqual([`${file}: unknown keys "theme", "modle" ignored`]);
    expect(loadSettings({ home, env: {} }).provider).toBe('openai');
    writeFile({ provider: 'openai' });
    expect(settingsWarnings(file)).toEqual([]);
    expect(settingsWarnings(path.join(home, 'missing.json'))).toEqual([]);
  });

  it('names the variable or flag of a bad override', () => {
    expect(() => loadSettings({ home, env: { AGENVOY_PROVIDER: 'bedrock' } })).toThrow(
      /^AGENVOY_PROVIDER must be/,
    );
    expect(() => loadSettings({ home, env: {}, flags: { baseUrl: 'ftp://x' } })).toThrow(
      /^flag --base-url must be/,
    );
  });
});

describe('saveSettings', () => {
  it('writes atomically, keeps fields it does not own, removes fields set to undefined', async () => {
    writeFile({ provider: 'openai', model: 'old', theme: 'dark' });
    const file = await saveSettings({ model: 'new', apiKeyName: null, provider: undefined }, { home });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      model: 'new',
      theme: 'dark',
      apiKeyName: null,
    });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['settings.json']);
    expect(loadSettings({ home, env: {} })).toMatchObject({
      provider: 'anthropic',
      model: 'new',
      apiKeyName: null,
    });
  });

  it('creates the folder, and refuses a bad value without touching the file', async () => {
    const file = await saveSettings({ provider: 'openai' }, { home });
    expect(readSettingsFile(file)).toEqual({ provider: 'openai' });
    await expect(saveSettings({ baseUrl: 'nope' }, { home })).rejects.toThrow(SettingsError);
    expect(readSettingsFile(file)).toEqual({ provider: 'openai' });
  });
});

describe('readSettings', () => {
  it('reads every section in one pass: bad values and unknown keys are named, their defaults apply', () => {
    const file = writeFile({
      provider: 'openai',
      theme: 'dark',
      defaultWorkspace: 'projects',
      web: {
        allowPrivateNetwork: 'yes',
        allowedHosts: ['nas.lan', 5, ' ', '10.0.0.0/8'],
        search: { backend: 'bing', url: 'http://localhost:8888', extra: 1 },
        images: 3,
      },
      limits: { toolArgumentsBytes: 2048, providerIdleSeconds: -1 },
    });
    const reading = readSettings(file);
    expect(reading).toMatchObject({
      problem: null,
      provider: { provider: 'openai' },
      defaultWorkspace: null,
      web: { allowedHosts: ['nas.lan', '10.0.0.0/8'], search: { url: 'http://localhost:8888' } },
      limits: { toolArgumentsBytes: 2048, providerIdleSeconds: 300 },
    });
    expect(reading.warnings.map((warning) => warning.text)).toEqual([
      `${file}: unknown key "theme" ignored`,
      `${file}: "defaultWorkspace" must be an absolute path (got "projects"); it is ignored`,
      `${file}: "web.allowPrivateNetwork" must be true or false (got "yes"); it is ignored`,
      `${file}: "web.allowedHosts" must be a list of host names, IP addresses or CIDR ranges (got 5); that entry and 1 more are ignored`,
      `${file}: "web.search.backend" must be "searxng" or "brave" (got "bing"); it is ignored`,
      `${file}: unknown key "web.search.extra" is ignored`,
      `${file}: "web.images" must be an object (got 3); it is ignored`,
      `${file}: "limits.providerIdleSeconds" must be a number of seconds from 0.01 to 86400 (got -1); the default 300 s applies`,
    ]);
    // The screen's warnings leave `limits` to readLimits; nothing of a bad file reaches the web tools.
    expect(settingsWarnings(file)).toHaveLength(7);
    expect(readWebSettings(file).allowPrivateNetwork).toBeUndefined();
  });

  it('a provider field that cannot be used is the problem; the other sections are still read', () => {
    const file = writeFile({ model: '', defaultWorkspace: home, limits: { providerIdleSeconds: 10 } });
    expect(readSettings(file)).toMatchObject({
      problem: `${file}: "model" must be a non-empty string (got "")`,
      defaultWorkspace: home,
      limits: { providerIdleSeconds: 10 },
    });
    writeFile('[1]');
    expect(readSettings(file)).toMatchObject({
      problem: `${file}: must hold a JSON object`,
      defaultWorkspace: null,
      warnings: [],
    });
  });
});

describe('providers beyond the two wire formats', () => {
  it('speaks Anthropic only for anthropic; every other provider is OpenAI-compatible', () => {
    expect(PROVIDER_KINDS.map((kind) => [kind, providerWire(kind)])).toEqual([
      ['anthropic', 'anthropic'],
      ['openai', 'openai'],
      ['openrouter', 'openai'],
      ['deepseek', 'openai'],
      ['ollama', 'openai'],
      ['lmstudio', 'openai'],
      ['custom', 'openai'],
    ]);
  });

  it('local servers take no key by default, so no hand-edited "apiKeyName": null is needed', () => {
    writeFile({ provider: 'ollama', model: 'llama3.2' });
    expect(loadSettings({ home, env: {} })).toEqual({
      provider: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.2',
      apiKeyName: null,
    });
    expect(PROVIDER_DEFAULTS.lmstudio.apiKeyName).toBeNull();
    expect(PROVIDER_DEFAULTS.openrouter.apiKeyName).toBe('OPENROUTER_API_KEY');
  });

  it('a provider without a default model must be given one: loadSettings says how, the draft shows ""', () => {
    writeFile({ provider: 'lmstudio' });
    expect(() => loadSettings({ home, env: {} })).toThrow(
      /provider "lmstudio" has no default model: choose one with `agenvoy setup`/,
    );
    expect(loadSettingsDraft({ home, env: {} }).model).toBe('');
    expect(loadSettings({ home, env: { AGENVOY_MODEL: 'qwen3-8b' } }).model).toBe('qwen3-8b');
  });

  it('a provider is chosen once settings.json, AGENVOY_PROVIDER or a flag names one, not by other fields', () => {
    expect(providerChosen({ home, env: {} })).toBe(false);
    writeFile({ model: 'x', baseUrl: 'http://127.0.0.1:1/v1' });
    expect(providerChosen({ home, env: {} })).toBe(false);
    expect(providerChosen({ home, env: { AGENVOY_PROVIDER: 'openai' } })).toBe(true);
    expect(providerChosen({ home, env: {}, flags: { provider: 'custom' } })).toBe(true);
    writeFile({ provider: 'deepseek' });
    expect(providerChosen({ home, env: {} })).toBe(true);
  });
});
