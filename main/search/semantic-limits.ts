// The bounds of the optional semantic search (docs/search.md, "Embeddings (optional)"): how long it waits, how much it
// holds, how long a reason may be. Tests lower some through SemanticSearchOptions.
import { clipNoted } from '../core/clip-chars';

/** The limit on embedding the query: search waits no longer than this for its vector. */
export const QUERY_EMBED_TIMEOUT_MS = 2_000;
/** The limit on one background request embedding a batch of tools. */
export const BATCH_EMBED_TIMEOUT_MS = 30_000;
/** Background requests in flight at once. */
export const EMBED_CONCURRENCY = 2;
/** After the background embedding fails, it is tried again no sooner than this. */
export const INDEX_RETRY_MS = 60_000;
/** After the query's embedding fails, searches stay lexical this long without asking again. */
export const QUERY_RETRY_MS = 30_000;
/** Most tools embedded (a catalogue past it is embedded up to it, in name order). */
export const MAX_EMBEDDED_TOOLS = 20_000;
/** Query vectors kept in memory, most recently used last. */
export const QUERY_CACHE_SIZE = 64;
/** The longest tool vector taken (what the embedding client takes: the largest common models give 3,072 or 4,096). */
export const MAX_VECTOR_DIMENSIONS = 8192;
/**
 * Most numbers the tool vectors held in memory may add up to (64 MiB of float32; the matrix the search scores is a
 * copy of as much again): past it, the tools after the first in name order are ranked by keywords only. 20,000 tools
 * of 768 numbers fit; of 4,096, the first 4,096 do.
 */
export const MAX_VECTOR_NUMBERS = 16 * 1024 * 1024;
/** Tool vectors read from the cache per step; the event loop gets a turn between steps. */
export const CACHE_READ_CHUNK = 500;
/** Longest reason kept for a note or a log line (the client cuts a server's own message to 300 characters). */
export const MAX_REASON_CHARS = 500;

/** An error's message on one line, cut to MAX_REASON_CHARS: it goes into notes the model reads and into the log. */
export function reasonOf(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  return clipNoted(text, MAX_REASON_CHARS);
}
