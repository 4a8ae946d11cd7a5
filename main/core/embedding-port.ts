// The ports through which find_tools' search reaches an embedding model and the cache of tool vectors
// (docs/search.md, "Embeddings (optional)"). The search layer knows no provider and no database: the model is
// implemented over the provider settings in main/agent/embeddings/, the cache over SQLite in main/store/, and
// main/app.ts wires both in.

/** One text-embedding model, as the configured provider serves it. */
export interface EmbeddingModel {
  /**
   * What the vectors belong to: the wire format, the address and the model id. Vectors of two ids are never compared,
   * so changing the model or the server starts a new set.
   */
  readonly id: string;
  /** The model as a person names it in a note ("nomic-embed-text at 127.0.0.1:11434"). */
  readonly label: string;
  /** Most texts one request carries. */
  readonly batchSize: number;
  /**
   * One unit-length vector per text, in order, all of one length. Throws EmbeddingError with a message safe to show
   * (never the key); a cancelled signal rejects with the signal's reason.
   */
  embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]>;
}

/** How long one embedding request may take, and what cancels it. */
export interface EmbedOptions {
  signal?: AbortSignal;
  timeoutMs: number;
}

/** What the settings say about embeddings right now. */
export type EmbeddingChoice =
  /** No embedding model is set: search is lexical, and nothing is sent anywhere. */
  | { kind: 'off' }
  /** A model is set but cannot be used (the provider has no embeddings API, the settings are broken), in words. */
  | { kind: 'unavailable'; reason: string }
  | { kind: 'ready'; model: EmbeddingModel };

/** Reads the embedding settings; asked before every search, so an edit of settings.json applies at once. */
export interface EmbeddingSource {
  current(): Promise<EmbeddingChoice>;
}

/** The embedding of one tool definition. */
export interface ToolVector {
  /** The tool's name. */
  name: string;
  /** The tool's definition hash (main/core/definition-hash.ts): a changed definition is embedded again. */
  hash: string;
  /** Unit length. */
  vector: Float32Array;
}

/** Where tool vectors outlive the process: one row per (model id, tool name, definition hash). */
export interface ToolVectorCache {
  /** The stored vectors of these tools (those it holds; damaged rows are dropped, never returned). */
  load(model: string, tools: ReadonlyArray<{ name: string; hash: string }>): ToolVector[];
  /** Stores vectors, replacing rows of the same key. */
  save(model: string, vectors: readonly ToolVector[]): void;
  /** Drops every vector of `model` (its length changed: the server now runs another model under that name). */
  forget(model: string): void;
  close(): void;
}

/** A failure of the embedding model, with a message safe to show to a person and to the model. */
export class EmbeddingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingError';
  }
}
