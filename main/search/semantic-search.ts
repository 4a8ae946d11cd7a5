// The optional semantic half of find_tools (docs/search.md, "Embeddings (optional)"): tool vectors computed in the
// background and kept per definition hash, the query embedded with a short limit, and the two rankings fused. It never
// stands in the way of the lexical ranking: not configured, it sends nothing; failing, slow or still computing, the
// search is lexical with a note that says why.
import type { RegisteredTool, ToolRegistry } from '../core/registry';
import { definitionHash } from '../core/definition-hash';
import type { EmbeddingModel, EmbeddingSource, ToolVector, ToolVectorCache } from '../core/embedding-port';
import type { FusedEntry } from './semantic-fusion';
import type { VectorMatrix } from './semantic-fusion';
import {
  closestRows,
  fuseRankings,
  matchStrength,
  SEMANTIC_DEPTH,
  similarities,
  vectorMatrix,
} from './semantic-fusion';
import { queryText, TOOL_TEXT_VERSION, toolText } from './tool-text';

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
/** Longest reason kept for a note or a log line (the client cuts a server's own message to 300 characters). */
export const MAX_REASON_CHARS = 500;
// Tool vectors read from the cache per step; the event loop gets a turn between steps.
const CACHE_READ_CHUNK = 500;

/** A hit of the lexical ranking, as the fusion reads it. */
export interface LexicalHit {
  name: string;
  matches: ReadonlyArray<{ weight: number }>;
  unmatched: readonly string[];
}

/** What a semantic search returns: the fused ranking, or null for "use the lexical one"; a note for the model. */
export interface SemanticResult {
  fused: FusedEntry[] | null;
  note?: string;
}

/** Where the search gets its model, its cache and its log. */
export interface SemanticSearchOptions {
  source: EmbeddingSource;
  /** Opens the vector cache when a model is first used (null: none; vectors then last as long as the process). */
  openCache?: () => Promise<ToolVectorCache | null>;
  /** Warnings worth a line in the app log (never carrying the key: the model's errors never do). */
  warn?: (message: string, fields?: Record<string, unknown>) => void;
  /** Tests shorten these. */
  queryTimeoutMs?: number;
  batchTimeoutMs?: number;
  indexRetryMs?: number;
  queryRetryMs?: number;
  maxVectorNumbers?: number;
  now?: () => number;
}

/** Tool vectors for one model id. */
interface ModelVectors {
  id: string;
  vectors: Map<string, { hash: string; vector: Float32Array }>;
  /** The length every vector of this model has; null until the first arrives. */
  length: number | null;
  /** Bumped whenever a vector is added or the set is dropped. */
  version: number;
}

/** The semantic ranking over a registry's usable tools. */
export class SemanticSearch {
  private readonly unsubscribe: () => void;
  private readonly controller = new AbortController();
  private readonly queryVectors = new Map<string, Float32Array>();
  private vectors: ModelVectors | null = null;
  private cache: Promise<ToolVectorCache | null> | null = null;
  /** The registry changed since the last background pass (or none ran yet). */
  private dirty = true;
  private indexing: Promise<void> | null = null;
  private indexRetryAt = 0;
  private indexError: string | null = null;
  private queryRetryAt = 0;
  private queryError: string | null = null;
  private lastWarning: string | null = null;
  /** The usable tools and their hashes, until the registry changes (sorting thousands per search would cost more than the search). */
  private tools: Array<{ name: string; hash: string; tool: RegisteredTool }> | null = null;
  private matrix: {
    tools: ReadonlyArray<{ name: string; hash: string }>;
    vectors: ModelVectors;
    version: number;
    matrix: VectorMatrix;
    rows: Map<string, number> | null;
  } | null = null;
  private readonly now: () => number;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: SemanticSearchOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.unsubscribe = registry.onChange(() => {
      this.dirty = true;
      this.tools = null;
    });
  }

  /**
   * Ranks `query` by meaning and fuses it with the `lexical` hits (best first). Never throws: whatever goes wrong gives
   * `fused: null` and a note in words. `exact` are tool names the query spells exactly: they stay first.
   */
  async rank(
    query: string | readonly string[],
    lexical: readonly LexicalHit[],
    options: { limit: number; exact?: readonly string[]; signal?: AbortSignal },
  ): Promise<SemanticResult> {
    try {
      const choice = await this.options.source.current();
      if (choice.kind === 'off') return { fused: null };
      if (choice.kind === 'unavailable')
        return { fused: null, note: `Ranked by keywords only: ${reasonOf(choice.reason)}.` };
      return await this.rankWith(choice.model, query, lexical, options);
    } catch (error) {
      const reason = reasonOf(error);
      this.warnOnce('semantic search failed', reason);
      return { fused: null, note: `Ranked by keywords only: the semantic ranking failed (${reason}).` };
    }
  }

  /**
   * Starts embedding the catalogue if a model is set and vectors are missing, and resolves when that pass is over
   * (a one-shot command waits for it; a long-running host never needs to).
   */
  async settle(): Promise<void> {
    const choice = await this.options.source.current();
    if (choice.kind !== 'ready') return;
    this.kick(choice.model);
    await this.indexing;
  }

  /** Stops the background work and closes the cache. */
  async close(): Promise<void> {
    this.unsubscribe();
    this.controller.abort(new Error('closed'));
    await this.indexing?.catch(() => undefined);
    const cache = await this.cache?.catch(() => null);
    cache?.close();
  }

  private async rankWith(
    model: EmbeddingModel,
    query: string | readonly string[],
    lexical: readonly LexicalHit[],
    options: { limit: number; exact?: readonly string[]; signal?: AbortSignal },
  ): Promise<SemanticResult> {
    const vectors = this.vectorsOf(model);
    this.kick(model);
    const tools = this.currentTools();
    const usable = this.matrixOf(vectors, tools);
    if (usable.names.length === 0) {
      const why = this.indexError
        ? `embedding the tools with ${model.label} failed (${this.indexError}); it is tried again within a minute`
        : `the tools' embeddings are still being computed with ${model.label} (0 of ${tools.length} so far)`;
      return { fused: null, note: `Ranked by keywords only: ${why}.` };
    }
    if (this.now() < this.queryRetryAt)
      return {
        fused: null,
        note: `Ranked by keywords only: ${model.label} failed a moment ago (${this.queryError}).`,
      };
    const phrasings = (typeof query === 'string' ? [query] : [...query]).map(queryText).filter(Boolean);
    if (phrasings.length === 0) return { fused: null };
    let queryVectors: Float32Array[];
    try {
      queryVectors = await this.embedQuery(model, phrasings, options.signal);
    } catch (error) {
      if (options.signal?.aborted) return { fused: null };
      const reason = reasonOf(error);
      this.queryError = reason;
      this.queryRetryAt = this.now() + (this.options.queryRetryMs ?? QUERY_RETRY_MS);
      this.warnOnce('embedding a find_tools query failed', reason);
      return { fused: null, note: `Ranked by keywords only: ${model.label} failed (${reason}).` };
    }
    this.queryError = null;
    const length = queryVectors[0]?.length ?? 0;
    const held = vectors.length;
    if (held !== null && length !== held) {
      // The server now runs another model under this name: its old vectors mean nothing.
      await this.forget(vectors);
      return {
        fused: null,
        note:
          `Ranked by keywords only: ${model.label} now answers vectors of ${length} numbers where the tools' have ` +
          `${held}; the tools are being embedded again.`,
      };
    }
    const scores = similarities(queryVectors, usable);
    const closest = closestRows(usable, scores, SEMANTIC_DEPTH);
    const rows = this.rowsOf(usable);
    const fused = fuseRankings(
      lexical.map((hit) => hit.name),
      closest,
      {
        limit: options.limit,
        // The lexical ranking counts as much as its best hit matched the query.
        lexicalWeight: Math.max(0, ...lexical.map(matchStrength)),
        ...(options.exact ? { exact: options.exact } : {}),
        similarity: (name) => {
          const row = rows.get(name);
          return row === undefined ? null : (scores[row] as number);
        },
      },
    );
    const note =
      usable.names.length < tools.length
        ? `Ranked by keywords and by meaning; ${tools.length - usable.names.length} of ${tools.length} tools are not ` +
          `embedded ${usable.names.length >= this.limitOf(vectors) ? '(past the bound on vectors held)' : 'yet'} and ` +
          'were ranked by keywords only.'
        : undefined;
    return note ? { fused, note } : { fused };
  }

  /** The query's vectors: from memory, or one request for those not there. */
  private async embedQuery(
    model: EmbeddingModel,
    phrasings: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<Float32Array[]> {
    const key = (text: string) => `${model.id}\n${text}`;
    const missing = [...new Set(phrasings.filter((text) => !this.queryVectors.has(key(text))))];
    if (missing.length > 0) {
      const signals = [this.controller.signal, ...(signal ? [signal] : [])];
      const got = await model.embed(missing, {
        signal: AbortSignal.any(signals),
        timeoutMs: this.options.queryTimeoutMs ?? QUERY_EMBED_TIMEOUT_MS,
      });
      missing.forEach((text, at) => this.queryVectors.set(key(text), got[at] as Float32Array));
    }
    return phrasings.map((text) => {
      const vector = this.queryVectors.get(key(text)) as Float32Array;
      // Most recently used last, so the first is the one to drop.
      this.queryVectors.delete(key(text));
      this.queryVectors.set(key(text), vector);
      while (this.queryVectors.size > QUERY_CACHE_SIZE) {
        const oldest = this.queryVectors.keys().next().value as string;
        this.queryVectors.delete(oldest);
      }
      return vector;
    });
  }

  /** The vectors of the current tools as one matrix, rebuilt only when the tools or the vectors changed. */
  private matrixOf(
    vectors: ModelVectors,
    tools: ReadonlyArray<{ name: string; hash: string }>,
  ): VectorMatrix {
    const cached = this.matrix;
    if (cached && cached.tools === tools && cached.vectors === vectors && cached.version === vectors.version)
      return cached.matrix;
    const matrix = vectorMatrix(
      tools.flatMap((tool) => {
        const held = vectors.vectors.get(tool.name);
        return held && held.hash === tool.hash ? [{ name: tool.name, vector: held.vector }] : [];
      }),
    );
    this.matrix = { tools, vectors, version: vectors.version, matrix, rows: null };
    return matrix;
  }

  /** Each tool's row in the matrix. */
  private rowsOf(matrix: VectorMatrix): Map<string, number> {
    const cached = this.matrix;
    if (cached?.matrix !== matrix) return new Map(matrix.names.map((name, row) => [name, row]));
    cached.rows ??= new Map(matrix.names.map((name, row) => [name, row]));
    return cached.rows;
  }

  /** The vectors of this model (a new set when the model id changed). */
  private vectorsOf(model: EmbeddingModel): ModelVectors {
    const id = `${model.id} text=${TOOL_TEXT_VERSION}`;
    if (this.vectors?.id !== id) {
      this.vectors = { id, vectors: new Map(), length: null, version: 0 };
      this.dirty = true;
      this.indexRetryAt = 0;
      this.indexError = null;
      this.queryRetryAt = 0;
    }
    return this.vectors;
  }

  /**
   * The usable tools, each with the hash its vector must carry, in name order, up to MAX_EMBEDDED_TOOLS. Built again
   * after a registry change, and then the vectors of names no longer among them are dropped: a server that renames
   * its tools at every list change cannot grow the memory held.
   */
  private currentTools(): Array<{ name: string; hash: string; tool: RegisteredTool }> {
    if (this.tools) return this.tools;
    const tools = this.registry
      .all()
      .slice(0, MAX_EMBEDDED_TOOLS)
      .map((tool) => ({ name: tool.spec.name, hash: contentHash(tool), tool }));
    this.tools = tools;
    const vectors = this.vectors;
    if (vectors) {
      const names = new Set(tools.map((tool) => tool.name));
      let dropped = false;
      for (const name of vectors.vectors.keys())
        if (!names.has(name)) {
          vectors.vectors.delete(name);
          dropped = true;
        }
      if (dropped) vectors.version++;
    }
    return tools;
  }

  /** How many tools' vectors may be held: MAX_VECTOR_NUMBERS over the vectors' length (all, until it is known). */
  private limitOf(vectors: ModelVectors): number {
    if (vectors.length === null) return MAX_EMBEDDED_TOOLS;
    const numbers = this.options.maxVectorNumbers ?? MAX_VECTOR_NUMBERS;
    return Math.min(MAX_EMBEDDED_TOOLS, Math.floor(numbers / vectors.length));
  }

  /** How many tool vectors are held in memory (tests, the bench). */
  held(): number {
    return this.vectors?.vectors.size ?? 0;
  }

  /** Starts a background pass unless one runs, none is needed, or the last failed a moment ago. */
  private kick(model: EmbeddingModel): void {
    if (this.indexing || !this.dirty || this.now() < this.indexRetryAt || this.controller.signal.aborted)
      return;
    const vectors = this.vectorsOf(model);
    this.dirty = false;
    this.indexing = this.index(model, vectors)
      .then(() => {
        this.indexError = null;
      })
      .catch((error: unknown) => {
        if (this.controller.signal.aborted) return;
        const reason = reasonOf(error);
        this.indexError = reason;
        this.indexRetryAt = this.now() + (this.options.indexRetryMs ?? INDEX_RETRY_MS);
        // What is still missing is tried again after the wait.
        this.dirty = true;
        this.warnOnce('embedding the tool catalogue failed', reason);
      })
      .finally(() => {
        this.indexing = null;
      });
  }

  /**
   * One background pass: vectors from the cache first, then the model for the rest, a few requests at a time. The
   * first request to fail ends the pass: the others in flight are cancelled and no batch is taken after it, so the
   * retry wait holds and no more than EMBED_CONCURRENCY requests are ever in flight.
   */
  private async index(model: EmbeddingModel, vectors: ModelVectors): Promise<void> {
    const pass = new AbortController();
    const signal = AbortSignal.any([this.controller.signal, pass.signal]);
    const stale = () => this.vectors !== vectors || signal.aborted;
    // The tools without a current vector, among the first limitOf(vectors) in name order.
    const missing = () =>
      this.currentTools()
        .slice(0, this.limitOf(vectors))
        .filter((tool) => vectors.vectors.get(tool.name)?.hash !== tool.hash);
    let wanted = missing();
    if (wanted.length === 0) return;
    const cache = await this.openCache();
    if (cache) {
      try {
        for (let at = 0; at < wanted.length && !stale(); at += CACHE_READ_CHUNK) {
          const chunk = wanted.slice(at, at + CACHE_READ_CHUNK);
          for (const found of cache.load(vectors.id, chunk)) this.accept(vectors, found, 'cache');
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } catch (error) {
        // Best effort: a cache that cannot be read now (locked, damaged past repair) leaves the model to embed.
        this.warnOnce('reading tool embeddings from the cache failed', reasonOf(error));
      }
      wanted = missing();
    }
    const batches: Array<typeof wanted> = [];
    const size = Math.max(1, Math.floor(model.batchSize));
    for (let at = 0; at < wanted.length; at += size) batches.push(wanted.slice(at, at + size));
    let failure: { error: unknown } | null = null;
    const worker = async (): Promise<void> => {
      try {
        for (let batch = batches.shift(); batch && !stale(); batch = batches.shift()) {
          // Past the bound, only tools already held (a changed definition) are asked again.
          const full = vectors.vectors.size >= this.limitOf(vectors);
          if (full && !batch.some((tool) => vectors.vectors.has(tool.name))) continue;
          const got = await model.embed(
            batch.map((tool) => toolText(tool.tool.spec)),
            { signal, timeoutMs: this.options.batchTimeoutMs ?? BATCH_EMBED_TIMEOUT_MS },
          );
          if (stale()) return;
          const rows = batch.map((tool, at) => ({
            name: tool.name,
            hash: tool.hash,
            vector: got[at] as Float32Array,
          }));
          const taken = rows.filter((row) => this.accept(vectors, row, 'model'));
          try {
            if (taken.length > 0) cache?.save(vectors.id, taken);
          } catch (error) {
            this.warnOnce('saving tool embeddings failed', reasonOf(error));
          }
        }
      } catch (error) {
        // The first failure is the pass's; it cancels the other requests, whose own rejections say nothing more.
        if (failure) return;
        failure = { error };
        pass.abort(error);
      }
    };
    // Every worker has stopped when the pass ends: the next pass cannot overlap this one's requests.
    await Promise.all(Array.from({ length: Math.min(EMBED_CONCURRENCY, batches.length) }, worker));
    if (failure) throw (failure as { error: unknown }).error;
  }

  /**
   * Takes a vector into memory (true when taken). One longer than MAX_VECTOR_DIMENSIONS, or of another length than the
   * model's, is refused (from the model: an error); past the bound on numbers held, a new tool's is left out.
   */
  private accept(vectors: ModelVectors, found: ToolVector, from: 'cache' | 'model'): boolean {
    const length = found.vector.length;
    if (length < 1 || length > MAX_VECTOR_DIMENSIONS) {
      if (from === 'cache') return false;
      throw new Error(
        `the model answered vectors of ${length} numbers (at most ${MAX_VECTOR_DIMENSIONS} are taken)`,
      );
    }
    if (vectors.length === null) vectors.length = length;
    if (length !== vectors.length) {
      if (from === 'cache') return false;
      // Forget the old set: the next pass (after the retry wait) embeds everything at the new length.
      void this.forget(vectors);
      throw new Error(
        `the model answered vectors of ${length} numbers where earlier ones had ${vectors.length}`,
      );
    }
    if (!vectors.vectors.has(found.name) && vectors.vectors.size >= this.limitOf(vectors)) return false;
    vectors.vectors.set(found.name, { hash: found.hash, vector: found.vector });
    vectors.version++;
    return true;
  }

  /** Drops every vector of the set (memory and cache); the next to arrive sets the length again. */
  private async forget(vectors: ModelVectors): Promise<void> {
    vectors.vectors.clear();
    vectors.length = null;
    vectors.version++;
    this.dirty = true;
    this.queryVectors.clear();
    try {
      (await this.openCache())?.forget(vectors.id);
    } catch (error) {
      this.warnOnce('clearing tool embeddings failed', reasonOf(error));
    }
  }

  /** The cache, opened once; one that cannot be opened now (another process holds it) is tried again next pass. */
  private openCache(): Promise<ToolVectorCache | null> {
    if (this.cache) return this.cache;
    const opening: Promise<ToolVectorCache | null> = (
      this.options.openCache?.() ?? Promise.resolve(null)
    ).catch((error: unknown) => {
      this.warnOnce('the tool embedding cache cannot be opened', reasonOf(error));
      if (this.cache === opening) this.cache = null;
      return null;
    });
    this.cache = opening;
    return opening;
  }

  // One line per distinct problem, not one per search; the reason is already cut to MAX_REASON_CHARS.
  private warnOnce(message: string, reason: string): void {
    const line = `${message}: ${reason}`;
    if (line === this.lastWarning) return;
    this.lastWarning = line;
    this.options.warn?.(message, { reason });
  }
}

/** An error's message on one line, cut to MAX_REASON_CHARS: it goes into notes the model reads and into the log. */
export function reasonOf(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  return text.length > MAX_REASON_CHARS
    ? `${text.slice(0, MAX_REASON_CHARS)} [output truncated: ${text.length - MAX_REASON_CHARS} characters cut]`
    : text;
}

/** The hash a tool's vector is kept under: the content part of its definition hash (description and parameters). */
export function contentHash(tool: RegisteredTool): string {
  const [content] = tool.definitionHash.split('@');
  return content || definitionHash(tool.spec.description, tool.spec.parameters);
}
