// Provider settings (docs/agent-loop.md, "Provider settings"): $AGENVOY_HOME/desktop/settings.json, overridden by AGENVOY_PROVIDER,
// AGENVOY_BASE_URL and AGENVOY_MODEL, overridden by explicit flags. The same file drives the desktop
// app, browser mode and `agenvoy chat`; fields this module does not know are kept when it saves.
import { writeFileAtomic } from '../core/atomic-write';
import fs from 'node:fs';
import { agenvoyHome, agenvoyPaths } from '../core/paths';
import { previewValue } from './settings-value';

/** The two wire formats. */
export type ProviderKind = 'anthropic' | 'openai';

/** Every provider kind, in the order a settings screen lists them. */
export const PROVIDER_KINDS: readonly ProviderKind[] = ['anthropic', 'openai'];

/** Fully resolved provider settings. */
export interface ProviderSettings {
  provider: ProviderKind;
  baseUrl: string;
  model: string;
  /** The secret holding the API key; null for servers without one (Ollama, LM Studio, vLLM). */
  apiKeyName: string | null;
}

/** What one layer (file, environment, flags) sets; absent fields fall through. */
export type SettingsLayer = Partial<ProviderSettings>;

/** Defaults per provider, applied to whatever no layer set. */
export const PROVIDER_DEFAULTS: Readonly<Record<ProviderKind, Omit<ProviderSettings, 'provider'>>> = {
  anthropic: {
    baseUrl: 'https://api.anthropic.com',
    model: 'claude-sonnet-4-6',
    apiKeyName: 'ANTHROPIC_API_KEY',
  },
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1', apiKeyName: 'OPENAI_API_KEY' },
};

/** The provider when nothing says otherwise. */
export const DEFAULT_PROVIDER: ProviderKind = 'anthropic';

/** A settings value that cannot be used; the message names the file or variable and the field. */
export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** Where the settings live under `home`. */
export function settingsPath(home?: string): string {
  return agenvoyPaths(home).settings;
}

/** Reads and checks settings.json; a missing file is an empty layer. Unknown fields are ignored. */
export function readSettingsFile(file: string): SettingsLayer {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SettingsError(`${file}: cannot read: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new SettingsError(`${file}: must hold a JSON object`);
  }
  return checkLayer(raw as Record<string, unknown>, (field) => `${file}: "${field}"`);
}

/** The top-level keys of settings.json some part of the app reads; others are kept on save and named in a warning. */
export const KNOWN_SETTINGS_KEYS: readonly string[] = [
  'provider',
  'baseUrl',
  'model',
  'apiKeyName',
  'defaultWorkspace',
  'web',
  'limits',
];

/** Warnings about settings.json that do not stop anything: unknown top-level keys (a typo, or a newer version's). */
export function settingsWarnings(file: string): string[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // Missing is fine; broken is readSettingsFile's error to report.
    return [];
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const unknown = Object.keys(raw).filter((key) => !KNOWN_SETTINGS_KEYS.includes(key));
  if (unknown.length === 0) return [];
  const shown = unknown
    .slice(0, 5)
    .map((key) => JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key));
  const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : '';
  return [`${file}: unknown key${unknown.length > 1 ? 's' : ''} ${shown.join(', ')}${more} ignored`];
}

const ENV_FIELDS = {
  AGENVOY_PROVIDER: 'provider',
  AGENVOY_BASE_URL: 'baseUrl',
  AGENVOY_MODEL: 'model',
} as const;

/** The environment's layer; empty variables count as unset. */
export function settingsFromEnv(env: NodeJS.ProcessEnv): SettingsLayer {
  const raw: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  for (const [name, field] of Object.entries(ENV_FIELDS)) {
    const value = env[name];
    if (value !== undefined && value !== '') {
      raw[field] = value;
      names[field] = name;
    }
  }
  return checkLayer(raw, (field) => names[field] ?? field);
}

/** Resolves layers from lowest to highest; switching away from a provider a lower layer named drops that layer's endpoint, model and key. */
export function resolveSettings(layers: readonly SettingsLayer[]): ProviderSettings {
  let provider = DEFAULT_PROVIDER;
  let named = false;
  let chosen: SettingsLayer = {};
  for (const layer of layers) {
    if (layer.provider !== undefined) {
      // An Ollama URL set for provider openai means nothing to --provider anthropic. Values set
      // without naming a provider are kept: they were meant for whichever one is chosen.
      if (named && layer.provider !== provider) chosen = {};
      provider = layer.provider;
      named = true;
    }
    if (layer.baseUrl !== undefined) chosen.baseUrl = layer.baseUrl;
    if (layer.model !== undefined) chosen.model = layer.model;
    if (layer.apiKeyName !== undefined) chosen.apiKeyName = layer.apiKeyName;
  }
  const defaults = PROVIDER_DEFAULTS[provider];
  return {
    provider,
    baseUrl: chosen.baseUrl ?? defaults.baseUrl,
    model: chosen.model ?? defaults.model,
    apiKeyName: chosen.apiKeyName === undefined ? defaults.apiKeyName : chosen.apiKeyName,
  };
}

/** Where loadSettings looks. */
export interface LoadSettingsOptions {
  /** $AGENVOY_HOME; defaults to the environment's. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Explicit choices (command-line flags, a settings screen's preview); checked like the file. */
  flags?: SettingsLayer;
}

/** The effective settings: file, then environment, then flags, then defaults. Throws SettingsError. */
export function loadSettings(options: LoadSettingsOptions = {}): ProviderSettings {
  const env = options.env ?? process.env;
  const file = settingsPath(options.home ?? agenvoyHome(env));
  const flags = checkLayer({ ...options.flags }, (field) => `flag ${FLAG_NAMES[field] ?? field}`);
  return resolveSettings([readSettingsFile(file), settingsFromEnv(env), flags]);
}

/** Writes `values` into settings.json atomically; an undefined field is removed, other fields are kept. */
export async function saveSettings(values: SettingsLayer, options: { home?: string } = {}): Promise<string> {
  const file = settingsPath(options.home);
  checkLayer({ ...values }, (field) => `"${field}"`);
  let current: Record<string, unknown> = {};
  try {
    const raw: unknown = JSON.parse(await fs.promises.readFile(file, 'utf8'));
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw))
      current = raw as Record<string, unknown>;
  } catch {
    // Missing or broken: the new file replaces it.
  }
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined) delete current[field];
    else current[field] = value;
  }
  await writeFileAtomic(file, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o644 });
  return file;
}

const FLAG_NAMES: Record<string, string> = {
  provider: '--provider',
  baseUrl: '--base-url',
  model: '--model',
  apiKeyName: '--api-key-name',
};

// Secret names double as environment variable names (the last step of the secret lookup).
const KEY_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkLayer(raw: Record<string, unknown>, where: (field: string) => string): SettingsLayer {
  const layer: SettingsLayer = {};
  const { provider, baseUrl, model, apiKeyName } = raw;
  if (provider !== undefined) {
    if (provider !== 'anthropic' && provider !== 'openai') {
      throw new SettingsError(
        `${where('provider')} must be "anthropic" or "openai" (got ${previewValue(provider)})`,
      );
    }
    layer.provider = provider;
  }
  if (baseUrl !== undefined) {
    if (typeof baseUrl !== 'string' || !isHttpUrl(baseUrl)) {
      throw new SettingsError(
        `${where('baseUrl')} must be an http:// or https:// URL (got ${previewValue(baseUrl)})`,
      );
    }
    layer.baseUrl = baseUrl;
  }
  if (model !== undefined) {
    if (typeof model !== 'string' || model.trim() === '') {
      throw new SettingsError(`${where('model')} must be a non-empty string (got ${previewValue(model)})`);
    }
    layer.model = model;
  }
  if (apiKeyName !== undefined) {
    if (apiKeyName !== null && (typeof apiKeyName !== 'string' || !KEY_NAME.test(apiKeyName))) {
      throw new SettingsError(
        `${where('apiKeyName')} must be a key name such as "OPENAI_API_KEY", or null for no key (got ${previewValue(apiKeyName)})`,
      );
    }
    layer.apiKeyName = apiKeyName;
  }
  return layer;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
