// Query-side expansion from WordNet: synonyms, derivations, hypernyms and hyponyms of a word's most
// frequent senses, each with a weight below an exact match. Results are cached per word and the work
// for a cold word is bounded by a read budget.
import { contentWords, stem } from './tokenize';
import { baseForms } from './morphy';
import type { IndexEntry, Pointer } from './wordnet';
import { WORDNET_POSES, WordNet } from './wordnet';

/** A stemmed index term related to a query word, with how much a match on it counts (0–1]. */
export interface Expansion {
  stem: string;
  weight: number;
}

/** Where related words come from; the index asks once per query word. */
export interface SynonymSource {
  /** Related terms of a lowercase word, the word's own stem excluded. */
  expand(word: string): readonly Expansion[];
}

/** How much each WordNet relation counts, relative to an exact match. */
export interface RelationWeights {
  baseForm: number;
  synonym: number;
  derived: number;
  similar: number;
  hypernym: number;
  hyponym: number;
  /** Multiplier per sense rank: the second sense counts this much of the first. */
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

const SENSES_PER_POS = 3;
const HYPONYM_SENSES = 2;
const DEFAULT_READ_BUDGET = 240;
const DEFAULT_CACHE_SIZE = 4096;

/** Options of `WordNetSynonyms`. */
export interface WordNetSynonymsOptions {
  wordnet?: WordNet;
  /** Most synset reads for one cold word: keeps a cold query bounded. */
  readBudget?: number;
  /** Words whose expansions are kept (least recently used go first). */
  cacheSize?: number;
  weights?: Partial<RelationWeights>;
}

/** `SynonymSource` backed by WordNet files, with an LRU cache of expansions. */
export class WordNetSynonyms implements SynonymSource {
  private readonly wordnet: WordNet;
  private readonly readBudget: number;
  private readonly cacheSize: number;
  private readonly cache = new Map<string, readonly Expansion[]>();
  private readonly weights: RelationWeights;

  constructor(options: WordNetSynonymsOptions = {}) {
    this.wordnet = options.wordnet ?? new WordNet();
    this.readBudget = options.readBudget ?? DEFAULT_READ_BUDGET;
    this.cacheSize = options.cacheSize ?? DEFAULT_CACHE_SIZE;
    this.weights = { ...RELATION_WEIGHTS, ...options.weights };
  }

  /** Related stems of a word; [] for words WordNet does not know (or when its files are unreadable). */
  expand(word: string): readonly Expansion[] {
    const cached = this.cache.get(word);
    if (cached) {
      this.cache.delete(word);
      this.cache.set(word, cached);
      return cached;
    }
    let expansions: readonly Expansion[];
    try {
      expansions = this.compute(word);
    } catch {
      // A missing or damaged dictionary degrades search to exact matching instead of failing it.
      expansions = [];
    }
    if (this.cache.size >= this.cacheSize) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(word, expansions);
    return expansions;
  }

  private compute(word: string): Expansion[] {
    if (!/^[a-z][a-z0-9-]*$/.test(word)) return [];
    const collected = new Map<string, number>();
    const own = stem(word);
    const add = (lemma: string, weight: number): void => {
      const parts = contentWords(lemma.replace(/_/g, ' '));
      // A two-word lemma ("web_page") spreads its weight over its words; longer phrases are too loose.
      if (parts.length === 0 || parts.length > 2) return;
      const share = parts.length === 1 ? weight : weight / 2;
      for (const part of parts) {
        const key = stem(part);
        if (key !== own && share > (collected.get(key) ?? 0)) collected.set(key, share);
      }
    };
    let budget = this.readBudget;
    for (const entry of this.entries(word)) {
      if (entry.lemma !== word) add(entry.lemma, this.weights.baseForm);
      const senses = entry.offsets.slice(0, SENSES_PER_POS);
      for (const [rank, offset] of senses.entries()) {
        if (budget-- <= 0) break;
        const decay = this.weights.senseDecay ** rank;
        const synset = this.wordnet.synset(entry.pos, offset);
        const position = synset.words.indexOf(entry.lemma) + 1;
        for (const synonym of synset.words) add(synonym, this.weights.synonym * decay);
        for (const pointer of synset.pointers) {
          const weight = pointerWeight(pointer, position, rank, this.weights) * decay;
          if (weight === 0 || budget-- <= 0) continue;
          const words = this.wordnet.synsetWords(pointer.pos, pointer.offset);
          if (pointer.target > 0) add(words[pointer.target - 1] ?? '', weight);
          else for (const related of words) add(related, weight);
        }
      }
    }
    return [...collected].map(([key, weight]) => ({ stem: key, weight }));
  }

  // The word itself where WordNet has it, else its base forms ("creating" → "create").
  private entries(word: string): IndexEntry[] {
    const entries: IndexEntry[] = [];
    for (const pos of WORDNET_POSES) {
      const direct = this.wordnet.lookup(word, pos);
      if (direct) {
        entries.push(direct);
        continue;
      }
      for (const form of baseForms(word, pos)) {
        const entry = this.wordnet.lookup(form, pos);
        if (entry) {
          entries.push(entry);
          break;
        }
      }
    }
    return entries;
  }
}

// Lexical pointers (derivations) hold for one word of the synset: only follow those from our word.
function pointerWeight(pointer: Pointer, position: number, rank: number, weights: RelationWeights): number {
  switch (pointer.symbol) {
    case '+':
      return pointer.source === position ? weights.derived : 0;
    case '$':
    case '&':
      return weights.similar;
    case '@':
    case '@i':
      return weights.hypernym;
    case '~':
    case '~i':
      return rank < HYPONYM_SENSES ? weights.hyponym : 0;
    default:
      return 0;
  }
}

