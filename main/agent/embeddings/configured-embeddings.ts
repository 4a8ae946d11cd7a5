// Which embedding model find_tools uses (docs/search.md, "Embeddings (optional)"): `search.embeddingModel` of
// settings.json, served by the provider the settings name, at its base URL and with its key. Read again whenever
// settings.json changes, so turning embeddings on or off needs no restart.
import fs from 'node:fs';
import type { EmbeddingChoice, EmbeddingSource } from '../../core/embedding-port';
import { EmbeddingError } from '../../core/embedding-port';
import { readSettings } from '../../settings/settings-file';
import { loadSettingsDraft, PROVIDER_LABELS, settingsPath } from '../../settings/settings';
import type { EmbeddingWire } from './embedding-client';
import { HttpEmbeddingModel } from './embedding-client';

/** A settings.json changed less than this long ago is read again at every call. */
export const SETTLE_MS = 100;

/** Where the settings and the key come from. */
export interface ConfiguredEmbeddingsOptions {
  /** $AGENVOY_HOME. */
  home: string;
  env: NodeJS.ProcessEnv;
  /** Looks a secret up by key name (the keychain, the secrets file, the environment). */
  getSecret: (key: string) => Promise<string | undefined>;
  batchSize?: number;
}

/** The embedding model the settings name, or why there is none. */
export class ConfiguredEmbeddings implements EmbeddingSource {
  private last: { stamp: string; choice: EmbeddingChoice } | null = null;

  constructor(private readonly options: ConfiguredEmbeddingsOptions) {}

  /**
   * The current choice; settings.json is parsed again only when it changed: its device, inode, size, mtime or ctime
   * differ, or it was changed in the last SETTLE_MS (file times advance in steps, so two writes of the same size
   * within one step look alike: git's "racily clean" rule, as main/settings/core-settings.ts).
   */
  async current(): Promise<EmbeddingChoice> {
    const file = settingsPath(this.options.home);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return { kind: 'off' };
    }
    const stamp = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
    if (this.last?.stamp === stamp) return this.last.choice;
    const choice = this.resolve(file);
    // An unsettled file is not kept: the next call reads it again whatever its times say.
    const settled = Date.now() - Math.max(stat.mtimeMs, stat.ctimeMs) > SETTLE_MS;
    this.last = { stamp: settled ? stamp : 'unsettled', choice };
    return choice;
  }

  private resolve(file: string): EmbeddingChoice {
    const model = readSettings(file).embeddingModel;
    if (!model) return { kind: 'off' };
    let provider;
    try {
      provider = loadSettingsDraft({ home: this.options.home, env: this.options.env });
    } catch (error) {
      return {
        kind: 'unavailable',
        reason: `the provider settings cannot be used (${(error as Error).message})`,
      };
    }
    const wire = embeddingWire(provider.provider);
    if (wire === null)
      return {
        kind: 'unavailable',
        reason:
          `the provider ${PROVIDER_LABELS[provider.provider]} has no embeddings API ` +
          '(search.embeddingModel needs an OpenAI-compatible provider or Ollama)',
      };
    const keyName = provider.apiKeyName;
    try {
      return {
        kind: 'ready',
        model: new HttpEmbeddingModel({
          wire,
          baseUrl: provider.baseUrl,
          model,
          keyName,
          getKey: () => (keyName ? this.options.getSecret(keyName) : Promise.resolve(undefined)),
          ...(this.options.batchSize ? { batchSize: this.options.batchSize } : {}),
        }),
      };
    } catch (error) {
      if (error instanceof EmbeddingError) return { kind: 'unavailable', reason: error.message };
      throw error;
    }
  }
}

/** The embeddings API a provider speaks: Ollama its own, Anthropic none, every other the OpenAI-compatible one. */
export function embeddingWire(provider: string): EmbeddingWire | null {
  if (provider === 'anthropic') return null;
  return provider === 'ollama' ? 'ollama' : 'openai';
}
