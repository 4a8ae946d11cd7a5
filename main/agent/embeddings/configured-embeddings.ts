// Which embedding model find_tools uses (docs/search.md, "Embeddings (optional)"): `search.embeddingModel` of
// settings.json, served by the provider the settings name, at its base URL and with its key. Read again whenever
// settings.json changes, so turning embeddings on or off needs no restart.
import fs from 'node:fs';
import type { EmbeddingChoice, EmbeddingSource } from '../../core/embedding-port';
import { fileStamp } from '../../core/file-stamp';
import { EmbeddingError } from '../../core/embedding-port';
import { readSettings } from '../../settings/settings-file';
import { loadSettingsDraft, PROVIDER_LABELS, settingsPath } from '../../settings/settings';
import type { EmbeddingWire } from './embedding-client';
import { HttpEmbeddingModel } from './embedding-client';

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
   * The current choice; settings.json is parsed again only when its stamp changed or it has none yet
   * (main/core/file-stamp.ts: a file changed in the last moments is read again at every call).
   */
  async current(): Promise<EmbeddingChoice> {
    const file = settingsPath(this.options.home);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return { kind: 'off' };
    }
    // An unsettled file has no stamp: the next call reads it again whatever its times say.
    const stamp = fileStamp(stat);
    if (stamp !== null && this.last?.stamp === stamp) return this.last.choice;
    const choice = this.resolve(file);
    this.last = stamp === null ? null : { stamp, choice };
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
