// BM25F: per-field length-normalised term frequencies, weighted and summed before saturation, so a word
// in the tool's own name counts more than the same word deep in its description.
import type { InvertedIndex } from './inverted-index';
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
  readonly touched: number[] = [];
  private best = new Float64Array(0);
  private matched = new Uint8Array(0);
  private readonly groupTouched: number[] = [];
  // slot * FIELD_COUNT + field → boost / length norm, valid for one index version.
  private multipliers = new Float64Array(0);
  private multipliersVersion = -1;

  /**
   * Adds each group's best term contribution per tool into `totals` and lists the tools in `touched`.
   * Taking the best alternative per query word keeps a broad word with many synonyms from outweighing
   * the other words of the query.
   */
  accumulate(index: InvertedIndex, groups: readonly QueryGroup[], parameters: Bm25fParameters): void {
    this.ensure(index.slotCount);
    this.refreshMultipliers(index, parameters);
    const count = Math.max(1, index.size);
    const { k1 } = parameters;
    const { best, multipliers, groupTouched } = this;
    const idf = (term: number): number => {
      const df = index.postingDocs[term]?.length ?? 0;
      return Math.log(1 + (count - df + 0.5) / (df + 0.5));
    };
    for (const group of groups) {
      // A rare synonym of a common word must not outscore the word itself: cap its IDF at the word's.
      const cap = group.exact === undefined ? Number.POSITIVE_INFINITY : idf(group.exact);
      for (const [term, weight] of group.terms) {
        const docs = index.postingDocs[term] ?? [];
        const tfs = index.postingTfs[term] ?? [];
        const df = docs.length;
        const scale = weight * Math.min(idf(term), cap);
        for (let i = 0; i < df; i++) {
          const slot = docs[i] as number;
          const packed = tfs[i] as number;
          const at = slot * FIELD_COUNT;
          const tf =
            (multipliers[at] as number) * (packed & 15) +
            (multipliers[at + 1] as number) * ((packed >>> 4) & 15) +
            (multipliers[at + 2] as number) * ((packed >>> 8) & 255) +
            (multipliers[at + 3] as number) * ((packed >>> 16) & 255);
          const contribution = (scale * tf) / (k1 + tf);
          const previous = best[slot] as number;
          if (previous === 0) groupTouched.push(slot);
          if (contribution > previous) best[slot] = contribution;
        }
      }
      this.mergeGroup();
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

  private mergeGroup(): void {
    const { best, totals, matched, touched, groupTouched } = this;
    for (const slot of groupTouched) {
      if (totals[slot] === 0) touched.push(slot);
      totals[slot] = (totals[slot] as number) + (best[slot] as number);
      matched[slot] = (matched[slot] as number) + 1;
      best[slot] = 0;
    }
    groupTouched.length = 0;
  }

  // boost / (1 - b + b * length / average) per slot and field; recomputed only after the index changed.
  private refreshMultipliers(index: InvertedIndex, parameters: Bm25fParameters): void {
    if (
      this.multipliersVersion === index.version &&
      this.multipliers.length >= index.slotCount * FIELD_COUNT
    ) {
      return;
    }
    const slots = index.slotCount;
    if (this.multipliers.length < slots * FIELD_COUNT)
      this.multipliers = new Float64Array(this.totals.length * FIELD_COUNT);
    const count = Math.max(1, index.size);
    for (let field = 0; field < FIELD_COUNT; field++) {
      const b = parameters.lengthNormalisation[field] ?? 0;
      const boost = parameters.boosts[field] ?? 0;
      const slope = b / Math.max(1, (index.fieldLengthSums[field] ?? 0) / count);
      const lengths = index.fieldLengths[field] as number[];
      for (let slot = 0; slot < slots; slot++) {
        this.multipliers[slot * FIELD_COUNT + field] = boost / (1 - b + slope * (lengths[slot] ?? 0));
      }
    }
    this.multipliersVersion = index.version;
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
