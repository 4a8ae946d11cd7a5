// Wires find_tools' optional embeddings (docs/search.md, "Embeddings (optional)"): the model of the configured
// provider (main/agent/embeddings/) and the vector cache (main/store/), both behind the search layer's ports. Nothing
// here loads before a search asks: a start, or a command that never searches, reads neither zod, undici nor
// better-sqlite3 for it (docs/hosts.md, "Fast start").
import fs from 'node:fs';
import type { AgenvoyPaths } from './core/paths';
import type { EmbeddingSource, ToolVectorCache } from './core/embedding-port';
import type { SemanticSearchOptions } from './search/semantic-search';

/** The model and the cache a core's semantic search uses (tests may shorten its limits too). */
export type EmbeddingPorts = Omit<SemanticSearchOptions, 'warn'>;

/** The embeddings settings.json configures, the key looked up with `getSecret`, vectors cached under `paths.desktop`. */
export function configuredEmbeddingPorts(
  paths: AgenvoyPaths,
  getSecret: (key: string) => Promise<string | undefined>,
  env: NodeJS.ProcessEnv = process.env,
): EmbeddingPorts {
  let configured: Promise<EmbeddingSource> | null = null;
  const source: EmbeddingSource = {
    async current() {
      // Without settings.json there is no embedding model: the parser is not even loaded.
      if (!fs.existsSync(paths.settings)) return { kind: 'off' };
      configured ??= import('./agent/embeddings/configured-embeddings').then(
        ({ ConfiguredEmbeddings }) => new ConfiguredEmbeddings({ home: paths.home, env, getSecret }),
      );
      return (await configured).current();
    },
  };
  const openCache = async (): Promise<ToolVectorCache | null> => {
    const { openToolVectorCache, vectorCachePath } = await import('./store/tool-vector-cache');
    return openToolVectorCache(vectorCachePath(paths.desktop));
  };
  return { source, openCache };
}
