// Vectors and the fusion of the two rankings (docs/search.md, "Embeddings (optional)"): cosine similarity of unit
// vectors, the tools closest to the query, and a weighted sum of the two rankings' normalised scores.
import { topK } from './top-k';

/** How many of the closest tools take part in the fusion: as deep as the lexical ranking's reranked pool. */
export const SEMANTIC_DEPTH = 50;
/**
 * A tool takes part in the semantic ranking only when its similarity stands this many standard deviations above the
 * catalogue's mean. Cosines of different models live on different scales (0.2–0.5 for one, 0.6–0.9 for another); how
 * far a tool stands out from the rest does not depend on the scale. Without it, every tool of a small catalogue would
 * hold a semantic rank, however unrelated.
 */
export const SEMANTIC_MIN_Z = 1;
/** A tool standing this many deviations above the catalogue's mean gets the semantic ranking's full share. */
export const SEMANTIC_FULL_Z = 4;
/**
 * The lexical ranking's share of a fused score (the semantic ranking has the rest). Measured with a real model (the
 * Universal Sentence Encoder, `npm run bench -- model`): at 0.7 a model weaker than the keywords costs nothing, where
 * reciprocal rank fusion had halved recall@1; and stronger models, simulated, still lift recall (docs/search.md).
 */
export const LEXICAL_SHARE = 0.7;

/** A tool's similarity to the query. */
export interface SemanticEntry {
  name: string;
  similarity: number;
  /** How many standard deviations its similarity stands above the catalogue's mean. */
  standing: number;
}

/** A tool of the fused ranking, with where each ranking put it (1-based; null: not in that ranking). */
export interface FusedEntry {
  name: string;
  score: number;
  lexicalRank: number | null;
  semanticRank: number | null;
  /** Its cosine similarity to the query (null when it has no vector yet). */
  similarity: number | null;
}

/** `values` scaled to unit length as 32-bit floats; null when any value is not finite or all are zero. */
export function unitVector(values: ArrayLike<number>): Float32Array | null {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    sum += value * value;
  }
  const norm = Math.sqrt(sum);
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = (values[i] as number) / norm;
  return out;
}

/** The dot product of two vectors of one length (their cosine when both are unit vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/** Unit vectors of one length side by side in one array, with their names: what a search scores in one pass. */
export interface VectorMatrix {
  names: string[];
  /** `names.length` rows of `length` numbers. */
  values: Float32Array;
  length: number;
}

/** Packs vectors of one length into a matrix (those of another length than the first are left out). */
export function vectorMatrix(tools: ReadonlyArray<{ name: string; vector: Float32Array }>): VectorMatrix {
  const length = tools[0]?.vector.length ?? 0;
  const kept = tools.filter((tool) => tool.vector.length === length);
  const values = new Float32Array(kept.length * length);
  kept.forEach((tool, row) => values.set(tool.vector, row * length));
  return { names: kept.map((tool) => tool.name), values, length };
}

/** Each row's best dot product with any of the query vectors (all of the matrix's length). */
export function similarities(queries: readonly Float32Array[], matrix: VectorMatrix): Float64Array {
  const { values, length } = matrix;
  const rows = matrix.names.length;
  const out = new Float64Array(rows).fill(Number.NEGATIVE_INFINITY);
  for (const query of queries) {
    if (query.length !== length) continue;
    // Four sums at a time: the loop is the whole cost of a hybrid search (docs/search.md has the figures).
    const whole = length - (length % 4);
    for (let row = 0, at = 0; row < rows; row++, at += length) {
      let a = 0;
      let b = 0;
      let c = 0;
      let d = 0;
      let i = 0;
      for (; i < whole; i += 4) {
        a += (values[at + i] as number) * (query[i] as number);
        b += (values[at + i + 1] as number) * (query[i + 1] as number);
        c += (values[at + i + 2] as number) * (query[i + 2] as number);
        d += (values[at + i + 3] as number) * (query[i + 3] as number);
      }
      for (; i < length; i++) a += (values[at + i] as number) * (query[i] as number);
      const sum = a + b + c + d;
      if (sum > (out[row] as number)) out[row] = sum;
    }
  }
  return out;
}

/**
 * The `depth` rows closest to the query among those that stand out from the catalogue (SEMANTIC_MIN_Z), best first,
 * ties by name.
 */
export function closestRows(
  matrix: VectorMatrix,
  scores: Float64Array,
  depth = SEMANTIC_DEPTH,
): SemanticEntry[] {
  let count = 0;
  let sum = 0;
  let squares = 0;
  for (const score of scores) {
    if (!Number.isFinite(score)) continue;
    count++;
    sum += score;
    squares += score * score;
  }
  if (count === 0) return [];
  const mean = sum / count;
  const deviation = Math.sqrt(Math.max(0, squares / count - mean * mean));
  // All alike (or one tool): nothing stands out, so the vectors say nothing about this query.
  if (!(deviation > 1e-9)) return [];
  const floor = mean + SEMANTIC_MIN_Z * deviation;
  const standing: SemanticEntry[] = [];
  scores.forEach((similarity, row) => {
    if (similarity >= floor)
      standing.push({
        name: matrix.names[row] as string,
        similarity,
        standing: (similarity - mean) / deviation,
      });
  });
  return topK(
    standing,
    depth,
    (entry) => entry.similarity,
    (entry) => entry.name,
  );
}

/** The closest tools to any of the query vectors (closestRows over the tools' matrix). */
export function closestTools(
  queries: readonly Float32Array[],
  tools: ReadonlyArray<{ name: string; vector: Float32Array }>,
  depth = SEMANTIC_DEPTH,
): SemanticEntry[] {
  const matrix = vectorMatrix(tools);
  return closestRows(matrix, similarities(queries, matrix), depth);
}

/** A hit of the lexical ranking, as the fusion reads it. */
export interface LexicalHit {
  name: string;
  matches: ReadonlyArray<{ weight: number }>;
  unmatched: readonly string[];
}

/**
 * How much of the query a lexical hit matched, from 0 to 1: the weights of its matches (1 for a query word itself,
 * less for a related word) over the query words, matched or not. A hit found through far-fetched relations
 * ("thirst→want", "quench" not matched) is weak however it ranks.
 */
export function matchStrength(hit: {
  matches: ReadonlyArray<{ weight: number }>;
  unmatched: readonly string[];
}): number {
  const words = hit.matches.length + hit.unmatched.length;
  if (words === 0) return 0;
  const total = hit.matches.reduce((sum, match) => sum + Math.min(1, Math.max(0, match.weight)), 0);
  return Math.min(1, total / words);
}

/** A hit of the lexical ranking as the fusion reads it: its score, and how much of the query it matched. */
export interface LexicalScore extends LexicalHit {
  score: number;
}

/**
 * Fuses the lexical ranking (best first) and the semantic one into one score per tool:
 * `LEXICAL_SHARE × strength × score / best score + (1 − LEXICAL_SHARE) × semantic share`, where strength is how much of
 * the query the lexical ranking's best hit matched (so a ranking of weak matches yields to a close semantic one) and
 * the semantic share grows from 0 at SEMANTIC_MIN_Z deviations above the catalogue's mean to 1 at SEMANTIC_FULL_Z.
 * Scores, not ranks: reciprocal rank fusion treats the tenth lexical hit almost as the first, and with a model weaker
 * than the keywords it lost half the right first answers. Ties go to the better lexical rank, then the name. A tool
 * named exactly by the query (`exact`) stays first, as it does in the lexical ranking.
 */
export function fuseRankings(
  lexical: readonly LexicalScore[],
  semantic: readonly SemanticEntry[],
  options: {
    limit: number;
    exact?: readonly string[];
    similarity?: (name: string) => number | null;
  },
): FusedEntry[] {
  const best = Math.max(0, ...lexical.map((hit) => hit.score));
  const strength = Math.max(0, ...lexical.map(matchStrength));
  const lexicalWeight = best > 0 ? (LEXICAL_SHARE * strength) / best : 0;
  const fused = new Map<string, FusedEntry>();
  const entry = (name: string): FusedEntry => {
    let found = fused.get(name);
    if (!found) {
      found = { name, score: 0, lexicalRank: null, semanticRank: null, similarity: null };
      fused.set(name, found);
    }
    return found;
  };
  lexical.forEach((hit, at) => {
    const found = entry(hit.name);
    if (found.lexicalRank !== null) return;
    found.lexicalRank = at + 1;
    found.score += lexicalWeight * Math.max(0, hit.score);
  });
  semantic.forEach(({ name, similarity, standing }, at) => {
    const found = entry(name);
    if (found.semanticRank !== null) return;
    found.semanticRank = at + 1;
    found.similarity = similarity;
    const share = (standing - SEMANTIC_MIN_Z) / (SEMANTIC_FULL_Z - SEMANTIC_MIN_Z);
    found.score += (1 - LEXICAL_SHARE) * Math.min(1, Math.max(0, share));
  });
  for (const found of fused.values())
    if (found.similarity === null) found.similarity = options.similarity?.(found.name) ?? null;
  const exact = new Set(options.exact ?? []);
  const rank = (found: FusedEntry): number => found.lexicalRank ?? Number.POSITIVE_INFINITY;
  return [...fused.values()]
    .sort(
      (a, b) =>
        Number(exact.has(b.name)) - Number(exact.has(a.name)) ||
        b.score - a.score ||
        rank(a) - rank(b) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    )
    .slice(0, Math.max(0, Math.floor(options.limit)));
}
