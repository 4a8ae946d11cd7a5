// The IPC contract, part: the settings screen and the Welcome page (providers, their presets and model lists) and
// where secrets are kept. Types only; preload/contract.ts re-exports every part.
import type { ModelPriceView, ReasoningLevel } from './model-views';

/** The providers settings may name; every one but Anthropic speaks the OpenAI-compatible wire format. */
export type ProviderKind =
  'anthropic' | 'openai' | 'openrouter' | 'deepseek' | 'ollama' | 'lmstudio' | 'custom';

/** What the Welcome page and Settings prefill when a provider is picked. */
export interface ProviderPreset {
  kind: ProviderKind;
  /** How it is named to a person ("LM Studio", "OpenAI-compatible (custom)"). */
  label: string;
  baseUrl: string;
  /** The default model; '' when the server's own list must be asked. */
  model: string;
  /** The secret its key is stored under; null for a local server that takes none. */
  apiKeyName: string | null;
}

/** The settings screen's fields. */
export interface SettingsView {
  provider: ProviderKind;
  baseUrl: string;
  model: string;
  /** The secret holding the API key; null for servers without one. */
  apiKeyName: string | null;
  /** Where new chats work unless they pick a folder; '' when each new chat gets a folder of its own in `chatsFolder`. */
  defaultWorkspace: string;
  /** Where new chats get a folder of their own (~/Agenvoy/<chat title>) when `defaultWorkspace` is ''. */
  chatsFolder: string;
  /** Every provider, in display order. */
  providers: ProviderKind[];
  /** Every provider's defaults, in display order. */
  presets: ProviderPreset[];
  /**
   * Whether a provider has been chosen (settings.json or AGENVOY_PROVIDER names one). Until then the app shows its
   * Welcome page. When true, the other fields may still be unusable: `problem` says why.
   */
  configured: boolean;
  /** Why the provider settings cannot be used as they stand (e.g. no model chosen); null when they can. */
  problem: string | null;
  /** How much the model reasons unless a chat says otherwise. */
  reasoning: ReasoningLevel;
  /** Anthropic's thinking budget in tokens for any level but off; null: the level's own (2,048 / 8,192 / 24,576). */
  thinkingBudgetTokens: number | null;
  /** The price table in use, sorted by model: the person's own once saved, else the shipped defaults. */
  prices: ModelPriceView[];
  /** Fields an environment variable (AGENVOY_PROVIDER, AGENVOY_BASE_URL, AGENVOY_MODEL) overrides: saving them changes the file, not what is used. */
  overridden: Array<'provider' | 'baseUrl' | 'model'>;
}

/** The model list a provider's server gives (the Welcome page's "Test connection"). */
export interface ModelListView {
  /** The address asked. */
  url: string;
  /** The ids exactly as the server lists them. */
  models: string[];
}

/** What settings.save changes; a field left out is kept. */
export interface SettingsInput {
  provider?: ProviderKind;
  baseUrl?: string;
  model?: string;
  apiKeyName?: string | null;
  /** An absolute folder, or '' for a folder of its own per chat. */
  defaultWorkspace?: string;
  reasoning?: ReasoningLevel;
  /** At least 1,024 and below 128,000; null: the level's own budget. */
  thinkingBudgetTokens?: number | null;
  /** The whole table, which replaces the shipped one from then on; null goes back to the shipped table. */
  prices?: ModelPriceView[] | null;
  /** Set when the person confirmed choosing the home folder itself (refused with `confirm_required` otherwise). */
  confirmHome?: boolean;
}

/** Where a secret lives. */
export type SecretLocation = 'keychain' | 'file' | 'env';

/** Stored key names and the active backend; never a value. */
export interface SecretsView {
  keys: Array<{ key: string; locations: SecretLocation[] }>;
  /** 'none': no keychain and no file fallback; values only come from the environment. */
  backend: 'keychain' | 'file' | 'none';
  /** Why this backend is active, in words a user can act on. */
  reason: string;
  /** The fallback secrets file; null on macOS and Windows. */
  file: string | null;
  interopNote: string | null;
}
