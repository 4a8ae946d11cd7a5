// BM25F: per-field length-normalised term frequencies, weighted and summed before saturation, so a word
// in the tool's own name counts more than the same word deep in its description.
import type { InvertedIndex } from './inverted-index';
import { fieldFrequency } from './inverted-index';
import type { QueryGroup } from './query-terms';
import { FIELD_COUNT } from './tool-document';

/** Ranking parameters: field boosts and length normalisation (name, source, description, parameters). */
export interface Bm25fParameters {
  k1: number;
  boosts: readonly number[];
  lengthNormalisation: readonly number[];
  /** Exponent on the share of query words a tool matches (0 = plain sum): favours tools that cover the query. */
  coordination: number;
}

/** The defaults: name words first, then description, then the server name, then parameters. */
export const DEFAULT_BM25F: Bm25fParameters = {
  k1: 1.2,
  boosts: [3, 1.2, 1, 0.3],
  lengthNormalisation: [0.5, 0.3, 0.75, 0.75],
  coordination: 0,
};

/** Reusable score buffers, so a query allocates nothing proportional to the index. */
export class ScoreBuffers {
  totals = new Float64Array(0);
  private best = new Float64Array(0);
  private matched = new Uint8Array(0);
  readonly touched: number[] = [];
  private readonly groupTouched: number[] = [];

  /**
   * Adds each group's best term contribution per tool into `totals` and lists the tools in `touched`.
   * Taking the best alternative per query word keeps a broad word with many synonyms from outweighing
   * the other words of the query.
   */
  accumulate(index: InvertedIndex, groups: readonly QueryGroup[], parameters: Bm25fParameters): void {
    this.ensure(index.slotCount);
    const count = Math.max(1, index.size);
    const norms = fieldNorms(index, parameters);
    const { k1, boosts } = parameters;
    for (const group of groups) {
      for (const [term, weight] of group) {
        const docs = index.postingDocs[term] ?? [];
        const tfs = index.postingTfs[term] ?? [];
        const df = docs.length;
        const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
        for (let i = 0; i < df; i++) {
          const slot = docs[i] as number;
          const packed = tfs[i] as number;
          let tf = 0;
          for (let field = 0; field < FIELD_COUNT; field++) {
            const frequency = fieldFrequency(packed, field);
            if (frequency === 0) continue;
            const length = (index.fieldLengths[field] as number[])[slot] ?? 0;
            const [constant, slope] = norms[field] as [number, number];
            tf += ((boosts[field] ?? 0) * frequency) / (constant + slope * length);
          }
          const contribution = (weight * idf * tf) / (k1 + tf);
          const previous = this.best[slot] as number;
          if (previous === 0) this.groupTouched.push(slot);
          if (contribution > previous) this.best[slot] = contribution;
        }
      }
      for (const slot of this.groupTouched) {
        if (this.totals[slot] === 0) this.touched.push(slot);
        this.totals[slot] = (this.totals[slot] as number) + (this.best[slot] as number);
        this.matched[slot] = (this.matched[slot] as number) + 1;
        this.best[slot] = 0;
      }
      this.groupTouched.length = 0;
    }
    if (parameters.coordination > 0 && groups.length > 1) {
      for (const slot of this.touched) {
        const share = (this.matched[slot] as number) / groups.length;
        this.totals[slot] = (this.totals[slot] as number) * share ** parameters.coordination;
      }
    }
  }

  /** Zeroes the touched scores for the next query. */
  reset(): void {
    for (const slot of this.touched) {
      this.totals[slot] = 0;
      this.matched[slot] = 0;
    }
    this.touched.length = 0;
  }

  private ensure(size: number): void {
    if (this.totals.length >= size) return;
    const capacity = Math.max(size, this.totals.length * 2, 64);
    const totals = new Float64Array(capacity);
    totals.set(this.totals);
    this.totals = totals;
    this.best = new Float64Array(capacity);
    const matched = new Uint8Array(capacity);
    matched.set(this.matched);
    this.matched = matched;
  }
}

// 1 - b + b * length / average, split into a constant and a slope per field.
function fieldNorms(index: InvertedIndex, parameters: Bm25fParameters): Array<[number, number]> {
  const count = Math.max(1, index.size);
  return Array.from({ length: FIELD_COUNT }, (_, field) => {
    const b = parameters.lengthNormalisation[field] ?? 0;
    const average = Math.max(1, (index.fieldLengthSums[field] ?? 0) / count);
    return [1 - b, b / average];
  });
}
