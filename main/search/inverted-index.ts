// Postings, vocabulary and field lengths of the tool index, kept incrementally: adding or removing one
// tool touches only that tool's terms.
import { FuzzyMatcher } from './fuzzy-matcher';
import type { ToolFields } from './tool-document';
import { FIELD_COUNT } from './tool-document';
import { stem } from './tokenize';

// Term frequencies of the four fields share one small integer per posting: name and source get 4 bits,
// description and parameters 8 bits (counts saturate; BM25 saturates far earlier anyway).
const FIELD_SHIFT = [0, 4, 8, 16] as const;
const FIELD_MAX = [15, 15, 255, 255] as const;
const FIELD_KEYS = ['name', 'source', 'description', 'parameters'] as const;

/** Term frequency of field `field` (0 name, 1 source, 2 description, 3 parameters) in a packed value. */
export function fieldFrequency(packed: number, field: number): number {
  return (packed >>> (FIELD_SHIFT[field] ?? 0)) & (FIELD_MAX[field] ?? 0);
}

/** Told when a word enters or leaves the vocabulary (derived indexes such as concepts follow it). */
export interface VocabularyListener {
  wordAdded(surface: number, word: string, term: number): void;
  wordRemoved(surface: number): void;
}

/** The index storage: one slot per tool, postings per stemmed term, surface words for spelling. */
export class InvertedIndex {
  /** Tool slot → posting lists are parallel arrays: docs[i] has packed frequencies tfs[i]. */
  readonly postingDocs: number[][] = [];
  readonly postingTfs: number[][] = [];
  /** Per field, slot → number of words in that field. */
  readonly fieldLengths: number[][] = Array.from({ length: FIELD_COUNT }, () => []);
  /** Per field, the sum of lengths over live tools. */
  readonly fieldLengthSums: number[] = new Array<number>(FIELD_COUNT).fill(0);

  private readonly slotByName = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly freeSlots: number[] = [];
  // Per slot: the tool's terms in ascending order and their packed field frequencies, for `frequency`.
  private readonly docTerms: Int32Array[] = [];
  private readonly docTfs: Int32Array[] = [];
  private readonly docSurfaces: Int32Array[] = [];

  private readonly termIds = new Map<string, number>();
  private readonly termStems: string[] = [];
  // A word as a tool wrote it, per term: what explanations show instead of the stem.
  private readonly termSurfaces: string[] = [];
  private readonly freeTerms: number[] = [];

  private readonly surfaceIds = new Map<string, number>();
  private readonly surfaceWords: string[] = [];
  private readonly surfaceDocs: number[] = [];
  private readonly freeSurfaces: number[] = [];
  private fuzzy: FuzzyMatcher | undefined;
  private readonly nearCache = new Map<string, { words: string[]; distance: number }>();
  private changes = 0;

  /** Bumped by every add and remove, so derived data (length norms) knows when to refresh. */
  get version(): number {
    return this.changes;
  }

  constructor(private readonly listener?: VocabularyListener) {}

  /** Number of tools indexed. */
  get size(): number {
    return this.slotByName.size;
  }

  /** Upper bound of slot numbers, for score arrays. */
  get slotCount(): number {
    return this.names.length;
  }

  /** The slot of a tool name. */
  slotOf(name: string): number | undefined {
    return this.slotByName.get(name);
  }

  /** The tool name in a slot. */
  nameOf(slot: number): string {
    return this.names[slot] ?? '';
  }

  /** The term id of a stem, if any tool has it. */
  termOf(stemmed: string): number | undefined {
    return this.termIds.get(stemmed);
  }

  /** A tool's packed field frequencies of a term (0 when the tool lacks it); see `fieldFrequency`. */
  frequency(slot: number, term: number): number {
    const terms = this.docTerms[slot];
    if (!terms) return 0;
    let low = 0;
    let high = terms.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const found = terms[middle] as number;
      if (found === term) return this.docTfs[slot]?.[middle] ?? 0;
      if (found < term) low = middle + 1;
      else high = middle - 1;
    }
    return 0;
  }

  /** A word as some tool wrote it for a term (its shortest spelling seen). */
  surfaceOf(term: number): string {
    return this.termSurfaces[term] || this.termStems[term] || '';
  }

  /** Whether some tool has this exact (unstemmed) word. */
  hasWord(word: string): boolean {
    return this.surfaceIds.has(word);
  }

  /** Known words closest to a word that is not in the vocabulary. */
  nearestWords(word: string, maxDistance: number): { words: string[]; distance: number } {
    if (!this.fuzzy) {
      this.fuzzy = new FuzzyMatcher(this.surfaceIds.keys());
      this.nearCache.clear();
    }
    const key = `${maxDistance}:${word}`;
    let near = this.nearCache.get(key);
    if (!near) {
      near = this.fuzzy.nearest(word, maxDistance);
      if (this.nearCache.size >= 1024) this.nearCache.clear();
      this.nearCache.set(key, near);
    }
    return near;
  }

  /** Adds a tool under a name that is not indexed yet. */
  add(name: string, fields: ToolFields): void {
    this.changes++;
    const slot = this.freeSlots.pop() ?? this.names.length;
    this.names[slot] = name;
    this.slotByName.set(name, slot);
    const frequencies = new Map<number, number>();
    const surfaces = new Set<number>();
    FIELD_KEYS.forEach((key, field) => {
      const words = fields[key];
      (this.fieldLengths[field] as number[])[slot] = words.length;
      this.fieldLengthSums[field] = (this.fieldLengthSums[field] ?? 0) + words.length;
      for (const word of words) {
        const term = this.internTerm(stem(word));
        // The shortest spelling reads best in explanations ("delete" rather than "deleting").
        const known = this.termSurfaces[term];
        if (!known || word.length < known.length) this.termSurfaces[term] = word;
        surfaces.add(this.internSurface(word, term));
        const packed = frequencies.get(term) ?? 0;
        if (fieldFrequency(packed, field) < (FIELD_MAX[field] ?? 0)) {
          frequencies.set(term, packed + (1 << (FIELD_SHIFT[field] ?? 0)));
        }
      }
    });
    for (const [term, packed] of frequencies) {
      (this.postingDocs[term] as number[]).push(slot);
      (this.postingTfs[term] as number[]).push(packed);
    }
    const terms = Int32Array.from(frequencies.keys()).sort();
    this.docTerms[slot] = terms;
    this.docTfs[slot] = Int32Array.from(terms, (term) => frequencies.get(term) ?? 0);
    for (const surface of surfaces) this.surfaceDocs[surface] = (this.surfaceDocs[surface] ?? 0) + 1;
    this.docSurfaces[slot] = Int32Array.from(surfaces);
  }

  /** Removes a tool; false when the name is not indexed. */
  remove(name: string): boolean {
    const slot = this.slotByName.get(name);
    if (slot === undefined) return false;
    this.changes++;
    this.slotByName.delete(name);
    this.names[slot] = '';
    for (let field = 0; field < FIELD_COUNT; field++) {
      const lengths = this.fieldLengths[field] as number[];
      this.fieldLengthSums[field] = (this.fieldLengthSums[field] ?? 0) - (lengths[slot] ?? 0);
      lengths[slot] = 0;
    }
    for (const term of this.docTerms[slot] ?? []) this.removePosting(term, slot);
    for (const surface of this.docSurfaces[slot] ?? []) this.releaseSurface(surface);
    this.docTerms[slot] = new Int32Array(0);
    this.docTfs[slot] = new Int32Array(0);
    this.docSurfaces[slot] = new Int32Array(0);
    this.freeSlots.push(slot);
    return true;
  }

  private internTerm(stemmed: string): number {
    let term = this.termIds.get(stemmed);
    if (term === undefined) {
      term = this.freeTerms.pop() ?? this.postingDocs.length;
      this.termIds.set(stemmed, term);
      this.termStems[term] = stemmed;
      this.postingDocs[term] = [];
      this.postingTfs[term] = [];
    }
    return term;
  }

  // Swap-remove: posting order carries no meaning, and scores are summed per slot.
  private removePosting(term: number, slot: number): void {
    const docs = this.postingDocs[term] as number[];
    const tfs = this.postingTfs[term] as number[];
    const at = docs.indexOf(slot);
    if (at < 0) return;
    const last = docs.length - 1;
    docs[at] = docs[last] as number;
    tfs[at] = tfs[last] as number;
    docs.pop();
    tfs.pop();
    if (docs.length === 0) {
      this.termIds.delete(this.termStems[term] ?? '');
      this.termStems[term] = '';
      this.termSurfaces[term] = '';
      this.freeTerms.push(term);
    }
  }

  private internSurface(word: string, term: number): number {
    let surface = this.surfaceIds.get(word);
    if (surface === undefined) {
      const added = this.freeSurfaces.pop() ?? this.surfaceWords.length;
      this.surfaceIds.set(word, added);
      this.surfaceWords[added] = word;
      this.surfaceDocs[added] = 0;
      this.fuzzy = undefined;
      this.notify(() => this.listener?.wordAdded(added, word, term));
      surface = added;
    }
    return surface;
  }

  private releaseSurface(surface: number): void {
    const count = (this.surfaceDocs[surface] ?? 0) - 1;
    this.surfaceDocs[surface] = count;
    if (count > 0) return;
    this.surfaceIds.delete(this.surfaceWords[surface] ?? '');
    this.surfaceWords[surface] = '';
    this.freeSurfaces.push(surface);
    this.fuzzy = undefined;
    this.notify(() => this.listener?.wordRemoved(surface));
  }

  // Derived indexes (WordNet concepts) only enrich ranking: their failure must not leave a tool half added.
  private notify(call: () => void): void {
    try {
      call();
    } catch {
      // The word stays searchable by its own spelling.
    }
  }
}
