// Provider settings (docs/agent-loop.md, "Provider settings"): $AGENVOY_HOME/desktop/settings.json, overridden by AGENVOY_PROVIDER,
// AGENVOY_BASE_URL and AGENVOY_MODEL, overridden by explicit flags. The same file drives the desktop
// app, browser mode and `agenvoy chat`; fields this module does not know are kept when it saves. The file is read
// through readSettings (settings-file.ts); the environment and flags are checked by the same zod schema.
import { writeFileAtomic } from '../core/atomic-write';
import { agenvoyHome, agenvoyPaths } from '../core/paths';
import { readSettings } from './settings-file';
import { noteSettingsWrite } from './settings-writes';
import type { ProviderKind, SettingsLayer } from './settings-schema';
import { providerLayerSchema } from './settings-schema';
import { previewValue } from './settings-value';

export type { ProviderKind, ProviderWire, SettingsLayer } from './settings-schema';
export { KNOWN_SETTINGS_KEYS, PROVIDER_KINDS, providerWire } from './settings-schema';

/** Fully resolved provider settings. */
export interface ProviderSettings {
  provider: ProviderKind;
  baseUrl: string;
  model: string;
  /** The secret holding the API key; null for servers without one (Ollama, LM Studio, vLLM). */
  apiKeyName: string | null;
}

/**
 * Defaults per provider, applied to whatever no layer set. A model of '' means the provider has no sensible default
 * (a local server lists what it has loaded): one must be chosen (`agenvoy setup`, the Welcome page, or `model`).
 */
export const PROVIDER_DEFAULTS: Readonly<Record<ProviderKind, Omit<ProviderSettings, 'provider'>>> = {
  anthropic: {
    baseUrl: 'https://api.anthropic.com',
    model: 'claude-sonnet-4-6',
    apiKeyName: 'ANTHROPIC_API_KEY',
  },
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1', apiKeyName: 'OPENAI_API_KEY' },
  openrouter: {
    baseUrl: 'https://openrouter.ai/api/v1',
    model: 'openai/gpt-4.1',
    apiKeyName: 'OPENROUTER_API_KEY',
  },
  deepseek: {
    baseUrl: 'https://api.deepseek.com/v1',
    model: 'deepseek-chat',
    apiKeyName: 'DEEPSEEK_API_KEY',
  },
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', model: '', apiKeyName: null },
  lmstudio: { baseUrl: 'http://127.0.0.1:1234/v1', model: '', apiKeyName: null },
  custom: { baseUrl: 'http://127.0.0.1:8000/v1', model: '', apiKeyName: 'CUSTOM_API_KEY' },
};

/** How each provider is named to a person. */
export const PROVIDER_LABELS: Readonly<Record<ProviderKind, string>> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  openrouter: 'OpenRouter',
  deepseek: 'DeepSeek',
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  custom: 'OpenAI-compatible (custom)',
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

/** The provider fields settings.json sets; a missing file is an empty layer. Throws SettingsError naming the field. */
export function readSettingsFile(file: string): SettingsLayer {
  const { problem, provider } = readSettings(file);
  if (problem !== null) throw new SettingsError(problem);
  return provider;
}

/**
 * Warnings about settings.json that do not stop anything, besides its `limits` (readLimits): unknown top-level keys
 * (a typo, or a newer version's), a bad `web` value or default workspace. A broken file is loadSettings's error.
 */
export function settingsWarnings(file: string): string[] {
  return readSettings(file)
    .warnings.filter((warning) => warning.section !== 'limits')
    .map((warning) => warning.text);
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

/**
 * Whether a provider has been chosen: settings.json names one, or AGENVOY_PROVIDER does (flags count where a host has
 * them). Until then the app shows its Welcome page and `agenvoy chat` points to `agenvoy setup` (docs/hosts.md).
 */
export function providerChosen(options: {
  home?: string;
  env?: NodeJS.ProcessEnv;
  flags?: SettingsLayer;
}): boolean {
  const env = options.env ?? process.env;
  if (options.flags?.provider !== undefined) return true;
  if (env.AGENVOY_PROVIDER) return true;
  return readSettings(settingsPath(options.home ?? agenvoyHome(env))).object.provider !== undefined;
}

/** Where loadSettings looks. */
export interface LoadSettingsOptions {
  /** $AGENVOY_HOME; defaults to the environment's. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Explicit choices (command-line flags, a settings screen's preview); checked like the file. */
  flags?: SettingsLayer;
}

/**
 * The effective settings: file, then environment, then flags, then defaults. Throws SettingsError, also when no model
 * is chosen for a provider without a default one (a local server).
 */
export function loadSettings(options: LoadSettingsOptions = {}): ProviderSettings {
  const settings = loadSettingsDraft(options);
  if (settings.model === '') {
    throw new SettingsError(
      `provider "${settings.provider}" has no default model: choose one with \`agenvoy setup\`, in Settings, ` +
        'or with "model" in settings.json',
    );
  }
  return settings;
}

/** The settings as loadSettings resolves them, a model of '' allowed (what a settings screen shows). */
export function loadSettingsDraft(options: LoadSettingsOptions = {}): ProviderSettings {
  const env = options.env ?? process.env;
  const file = settingsPath(options.home ?? agenvoyHome(env));
  const flags = checkLayer({ ...options.flags }, (field) => `flag ${FLAG_NAMES[field] ?? field}`);
  return resolveSettings([readSettingsFile(file), settingsFromEnv(env), flags]);
}

/** Writes `values` into settings.json atomically; an undefined field is removed, other fields are kept. */
export async function saveSettings(values: SettingsLayer, options: { home?: string } = {}): Promise<string> {
  const file = settingsPath(options.home);
  checkLayer({ ...values }, (field) => `"${field}"`);
  // Missing or broken: the new file replaces it.
  const current = { ...readSettings(file).object };
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined) delete current[field];
    else current[field] = value;
  }
  try {
    await writeFileAtomic(file, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o644 });
  } finally {
    // Counted even when the write failed part-way: the core's next batch looks at the file rather than trust memory.
    noteSettingsWrite();
  }
  return file;
}

const FLAG_NAMES: Record<string, string> = {
  provider: '--provider',
  baseUrl: '--base-url',
  model: '--model',
  apiKeyName: '--api-key-name',
};

/** Checks one layer of the environment or flags with the file's own schema; the first bad field is thrown. */
function checkLayer(raw: Record<string, unknown>, where: (field: string) => string): SettingsLayer {
  const checked = providerLayerSchema.safeParse(raw, { reportInput: true });
  if (checked.success) return checked.data;
  const [issue] = checked.error.issues;
  const field = String(issue?.path[0] ?? 'settings');
  throw new SettingsError(`${where(field)} ${issue?.message} (got ${previewValue(issue?.input)})`);
}
