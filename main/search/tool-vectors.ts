// The tool vectors of one embedding model held in memory (docs/search.md, "Embeddings (optional)"): which vectors are
// taken, the bounds on their length and on the numbers held, and dropping the vectors of tools that are gone.
import { definitionHash } from '../core/definition-hash';
import type { RegisteredTool } from '../core/registry';
import type { ToolVector } from '../core/embedding-port';
import { MAX_EMBEDDED_TOOLS, MAX_VECTOR_DIMENSIONS } from './semantic-limits';
import type { VectorMatrix } from './semantic-fusion';
import { vectorMatrix } from './semantic-fusion';

/** Tool vectors for one model id. */
export interface ModelVectors {
  id: string;
  vectors: Map<string, { hash: string; vector: Float32Array }>;
  /** The length every vector of this model has; null until the first arrives. */
  length: number | null;
  /** Bumped whenever a vector is added or the set is dropped. */
  version: number;
}

/** An empty set for a model id. */
export function newModelVectors(id: string): ModelVectors {
  return { id, vectors: new Map(), length: null, version: 0 };
}

/** A model answered vectors of another length than before: the set must be forgotten. */
export class VectorLengthChanged extends Error {}

/** How many tools' vectors may be held: `maxNumbers` over the vectors' length (all, until it is known). */
export function vectorLimit(vectors: ModelVectors, maxNumbers: number): number {
  if (vectors.length === null) return MAX_EMBEDDED_TOOLS;
  return Math.min(MAX_EMBEDDED_TOOLS, Math.floor(maxNumbers / vectors.length));
}

/**
 * Takes a vector into memory (true when taken). One longer than MAX_VECTOR_DIMENSIONS, or of another length than the
 * model's, is refused (from the model: an error, VectorLengthChanged for a new length); past `limit` tools held, a new
 * tool's is left out.
 */
export function takeVector(
  vectors: ModelVectors,
  found: ToolVector,
  from: 'cache' | 'model',
  limit: number,
): boolean {
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
    throw new VectorLengthChanged(
      `the model answered vectors of ${length} numbers where earlier ones had ${vectors.length}`,
    );
  }
  if (!vectors.vectors.has(found.name) && vectors.vectors.size >= limit) return false;
  vectors.vectors.set(found.name, { hash: found.hash, vector: found.vector });
  vectors.version++;
  return true;
}

/** Drops the vectors of names not in `names`: a server that renames its tools at every change cannot grow memory. */
export function keepOnly(vectors: ModelVectors, names: ReadonlySet<string>): void {
  let dropped = false;
  for (const name of vectors.vectors.keys())
    if (!names.has(name)) {
      vectors.vectors.delete(name);
      dropped = true;
    }
  if (dropped) vectors.version++;
}

/** The hash a tool's vector is kept under: the content part of its definition hash (description and parameters). */
export function contentHash(tool: RegisteredTool): string {
  const [content] = tool.definitionHash.split('@');
  return content || definitionHash(tool.spec.description, tool.spec.parameters);
}

/** The current tools' vectors as one matrix, rebuilt only when the tools or the vectors changed. */
export class MatrixCache {
  private kept: {
    tools: ReadonlyArray<{ name: string; hash: string }>;
    vectors: ModelVectors;
    version: number;
    matrix: VectorMatrix;
    rows: Map<string, number> | null;
  } | null = null;

  /** The matrix of the tools whose held vector carries their current hash. */
  of(vectors: ModelVectors, tools: ReadonlyArray<{ name: string; hash: string }>): VectorMatrix {
    const kept = this.kept;
    if (kept && kept.tools === tools && kept.vectors === vectors && kept.version === vectors.version)
      return kept.matrix;
    const matrix = vectorMatrix(
      tools.flatMap((tool) => {
        const held = vectors.vectors.get(tool.name);
        return held && held.hash === tool.hash ? [{ name: tool.name, vector: held.vector }] : [];
      }),
    );
    this.kept = { tools, vectors, version: vectors.version, matrix, rows: null };
    return matrix;
  }

  /** Each tool's row in the matrix. */
  rows(matrix: VectorMatrix): Map<string, number> {
    const kept = this.kept;
    if (kept?.matrix !== matrix) return new Map(matrix.names.map((name, row) => [name, row]));
    kept.rows ??= new Map(matrix.names.map((name, row) => [name, row]));
    return kept.rows;
  }
}

/** Query vectors kept in memory, most recently used last; past `capacity` the least recently used go. */
export class RecentVectors {
  private readonly entries = new Map<string, Float32Array>();

  constructor(private readonly capacity: number) {}

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, vector: Float32Array): void {
    this.entries.delete(key);
    this.entries.set(key, vector);
    this.trim();
  }

  /** The vector of `key`, now the most recently used. */
  use(key: string): Float32Array | undefined {
    const vector = this.entries.get(key);
    if (vector !== undefined) this.set(key, vector);
    return vector;
  }

  clear(): void {
    this.entries.clear();
  }

  private trim(): void {
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.entries.delete(oldest.value);
    }
  }
}
