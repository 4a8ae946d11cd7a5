// The WordNet concepts of the words tools use, kept on disk (desktop/cache/word-concepts.json) so the first search
// of a command does not look every vocabulary word up in the dictionary files again (docs/hosts.md, "Fast start";
// docs/search.md). A word's concepts depend only on the dictionary and on how many senses count, never on the tools,
// so the file is keyed by those (a file written for another dictionary or rule is ignored) and holds one entry per
// word, shared by every tool that uses it. The file is a hint: a damaged, oversized or foreign file is ignored and
// rewritten, and the worst a forged entry can do is change which words a search relates — it cannot add a tool,
// change a definition, or reach anything but the ranking.
import { readRegularFileSync } from '../core/regular-file';
import { writeCacheFileSync } from '../core/atomic-write';
import type { WordConcept } from './synonyms';

/** The largest file read. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** The most words kept; the least recently added go first. */
export const MAX_CACHED_WORDS = 100_000;
/** Longest word kept (longer words are looked up each time). */
const MAX_WORD_LENGTH = 64;
/** Concepts per word: 3 parts of speech × at most 8 sense ranks. */
const MAX_CONCEPTS = 24;
const RANKS = 8;
/** Concept keys are part-of-speech code (1–4) × 1e9 + byte offset (see `conceptKey`). */
const MIN_CONCEPT = 1e9;
const MAX_CONCEPT = 5e9;
const WORD = /^[a-z][a-z0-9-]*$/;

/** Where `WordNetSynonyms` keeps the concepts it has looked up. */
export interface WordConceptStore {
  /** The word's concepts, when known (an empty list: the dictionary has no such word). */
  get(word: string): readonly WordConcept[] | undefined;
  set(word: string, concepts: readonly WordConcept[]): void;
  /** Saves what was learnt since the last flush. */
  flush(): void;
}

interface ConceptFileBody {
  key: string;
  /** word → flat list of concept key × 8 + sense rank. */
  words: Record<string, number[]>;
}

/** A `WordConceptStore` in one JSON file, read on first use and written atomically when it gained words. */
export class WordConceptFile implements WordConceptStore {
  private known: Map<string, readonly WordConcept[]> | null = null;
  private dirty = false;
  private named: string | null = null;

  /**
   * @param file the cache file (absent: created on the first flush)
   * @param key names the dictionary and the lookup rule (asked when first needed): a file with another is ignored
   */
  constructor(
    readonly file: string,
    private readonly key: () => string,
  ) {}

  get(word: string): readonly WordConcept[] | undefined {
    return this.load().get(word);
  }

  set(word: string, concepts: readonly WordConcept[]): void {
    if (!storable(word, concepts)) return;
    const known = this.load();
    if (known.has(word)) return;
    known.set(word, concepts);
    this.dirty = true;
  }

  flush(): void {
    if (!this.dirty || !this.known) return;
    this.dirty = false;
    const words: Record<string, number[]> = {};
    const entries = [...this.known];
    for (const [word, concepts] of entries.slice(-MAX_CACHED_WORDS)) {
      words[word] = concepts.flatMap(({ concept, rank }) => [concept * RANKS + rank]);
    }
    const body: ConceptFileBody = { key: this.keyName(), words };
    writeCacheFileSync(this.file, JSON.stringify(body));
  }

  private keyName(): string {
    this.named ??= this.key();
    return this.named;
  }

  private load(): Map<string, readonly WordConcept[]> {
    this.known ??= this.read();
    return this.known;
  }

  // Any entry out of shape discards the whole file: it was not written by this code for this dictionary.
  private read(): Map<string, readonly WordConcept[]> {
    const known = new Map<string, readonly WordConcept[]>();
    try {
      const raw: unknown = JSON.parse(readRegularFileSync(this.file, MAX_FILE_BYTES));
      if (!raw || typeof raw !== 'object') return known;
      const { key, words } = raw as Partial<ConceptFileBody>;
      if (key !== this.keyName() || !words || typeof words !== 'object' || Array.isArray(words)) return known;
      const entries = Object.entries(words);
      if (entries.length > MAX_CACHED_WORDS) return known;
      for (const [word, packed] of entries) {
        const concepts = unpack(packed);
        if (!concepts || !storable(word, concepts)) return new Map();
        known.set(word, concepts);
      }
      return known;
    } catch {
      return new Map();
    }
  }
}

function unpack(packed: unknown): WordConcept[] | null {
  if (!Array.isArray(packed) || packed.length > MAX_CONCEPTS) return null;
  const concepts: WordConcept[] = [];
  for (const value of packed) {
    if (!Number.isSafeInteger(value)) return null;
    const number = value as number;
    concepts.push({ concept: Math.floor(number / RANKS), rank: number % RANKS });
  }
  return concepts;
}

function storable(word: string, concepts: readonly WordConcept[]): boolean {
  return (
    word.length <= MAX_WORD_LENGTH &&
    WORD.test(word) &&
    concepts.length <= MAX_CONCEPTS &&
    concepts.every(
      ({ concept, rank }) =>
        Number.isInteger(concept) &&
        concept >= MIN_CONCEPT &&
        concept < MAX_CONCEPT &&
        Number.isInteger(rank) &&
        rank >= 0 &&
        rank < RANKS,
    )
  );
}
