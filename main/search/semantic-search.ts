// The optional semantic half of find_tools (docs/search.md, "Embeddings (optional)"): tool vectors computed in the
// background and kept per definition hash, the query embedded with a short limit, and the two rankings fused. It never
// stands in the way of the lexical ranking: not configured, it sends nothing; failing, slow or still computing, the
// search is lexical with a note that says why.
import type { RegisteredTool, ToolRegistry } from '../core/registry';
import type { EmbeddingModel, EmbeddingSource, ToolVector, ToolVectorCache } from '../core/embedding-port';
import type { FusedEntry, LexicalScore } from './semantic-fusion';
import { closestRows, fuseRankings, SEMANTIC_DEPTH, similarities } from './semantic-fusion';
import { queryText, TOOL_TEXT_VERSION, toolText } from './tool-text';
import {
  BATCH_EMBED_TIMEOUT_MS,
  CACHE_READ_CHUNK,
  EMBED_CONCURRENCY,
  INDEX_RETRY_MS,
  MAX_EMBEDDED_TOOLS,
  MAX_VECTOR_NUMBERS,
  QUERY_CACHE_SIZE,
  QUERY_EMBED_TIMEOUT_MS,
  QUERY_RETRY_MS,
  reasonOf,
} from './semantic-limits';
import type { ModelVectors } from './tool-vectors';
import {
  contentHash,
  keepOnly,
  MatrixCache,
  newModelVectors,
  RecentVectors,
  takeVector,
  VectorLengthChanged,
  vectorLimit,
} from './tool-vectors';

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

/** The semantic ranking over a registry's usable tools. */
export class SemanticSearch {
  private readonly unsubscribe: () => void;
  private readonly controller = new AbortController();
  private readonly queryVectors = new RecentVectors(QUERY_CACHE_SIZE);
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
  private readonly matrices = new MatrixCache();
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
    lexical: readonly LexicalScore[],
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
    lexical: readonly LexicalScore[],
    options: { limit: number; exact?: readonly string[]; signal?: AbortSignal },
  ): Promise<SemanticResult> {
    const vectors = this.vectorsOf(model);
    this.kick(model);
    const tools = this.currentTools();
    const usable = this.matrices.of(vectors, tools);
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
    const rows = this.matrices.rows(usable);
    const fused = fuseRankings(lexical, closest, {
      limit: options.limit,
      ...(options.exact ? { exact: options.exact } : {}),
      similarity: (name) => {
        const row = rows.get(name);
        return row === undefined ? null : (scores[row] as number);
      },
    });
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
    return phrasings.map((text) => this.queryVectors.use(key(text)) as Float32Array);
  }

  /** The vectors of this model (a new set when the model id changed). */
  private vectorsOf(model: EmbeddingModel): ModelVectors {
    const id = `${model.id} text=${TOOL_TEXT_VERSION}`;
    if (this.vectors?.id !== id) {
      this.vectors = newModelVectors(id);
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
    if (this.vectors) keepOnly(this.vectors, new Set(tools.map((tool) => tool.name)));
    return tools;
  }

  private limitOf(vectors: ModelVectors): number {
    return vectorLimit(vectors, this.options.maxVectorNumbers ?? MAX_VECTOR_NUMBERS);
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

  /** Takes a vector into memory (see takeVector); a change of length forgets the whole set. */
  private accept(vectors: ModelVectors, found: ToolVector, from: 'cache' | 'model'): boolean {
    try {
      return takeVector(vectors, found, from, this.limitOf(vectors));
    } catch (error) {
      // Forget the old set: the next pass (after the retry wait) embeds everything at the new length.
      if (error instanceof VectorLengthChanged) void this.forget(vectors);
      throw error;
    }
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
