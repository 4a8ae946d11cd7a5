// Tool names and free text to index terms: split identifiers, lowercase, drop stopwords, stem.
// A char-code scanner rather than Unicode regexes: tokenising is most of the cost of building the index.
import { stemmer } from 'stemmer';
import { STOPWORDS } from './stopwords';

const STEM_CACHE_LIMIT = 50_000;
const stemCache = new Map<string, string>();

const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

/**
 * Splits text into lowercase words: snake_case, kebab-case, camelCase, acronyms (HTTPServer) and
 * letter–digit runs (sha256 → sha256, sha, 256). Keeps stopwords; see `analyze` for index terms.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  let previous = OTHER;
  let beforePrevious = OTHER;
  for (let i = 0; i <= text.length; i++) {
    const kind = i < text.length ? charKind(text, i) : OTHER;
    if (kind === OTHER) {
      if (start >= 0) pushPart(words, text.slice(start, i));
      start = -1;
    } else if (start < 0) {
      start = i;
    } else if (kind === UPPER && (previous === LOWER || previous === DIGIT)) {
      // getIssue → get | Issue
      pushPart(words, text.slice(start, i));
      start = i;
    } else if (kind === LOWER && previous === UPPER && beforePrevious === UPPER && isWordTail(text, i)) {
      // HTTPServer → HTTP | Server, but URLs and IDs stay whole
      pushPart(words, text.slice(start, i - 1));
      start = i - 1;
    }
    beforePrevious = previous;
    previous = kind;
  }
  return words;
}

// A mixed letter–digit part is kept whole (s3, ec2, sha256 are names) and also split, so "sha" or "256"
// alone still match.
function pushPart(words: string[], raw: string): void {
  const part = raw.toLowerCase();
  words.push(part);
  let letters = false;
  let digits = false;
  for (let i = 0; i < part.length; i++) {
    if (charKind(part, i) === DIGIT) digits = true;
    else letters = true;
  }
  if (!letters || !digits) return;
  let start = 0;
  for (let i = 1; i <= part.length; i++) {
    if (i < part.length && (charKind(part, i) === DIGIT) === (charKind(part, start) === DIGIT)) continue;
    const piece = part.slice(start, i);
    if (piece.length > 1 || charKind(piece, 0) === DIGIT) words.push(piece);
    start = i;
  }
}

// A lowercase run of two or more letters starts at i (so "Server" but not the plural "s" of "URLs").
function isWordTail(text: string, i: number): boolean {
  return i + 1 < text.length && charKind(text, i + 1) === LOWER;
}

function charKind(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  if (code < 128) return OTHER;
  // Outside ASCII: letters by case, other letters and digits as lowercase letters.
  const char = text.charAt(i);
  if (char.toLowerCase() !== char) return UPPER;
  if (char.toUpperCase() !== char) return LOWER;
  return /[\p{L}\p{N}]/u.test(char) ? LOWER : OTHER;
}

/** The Porter stem of a lowercase word, cached: the same few thousand words recur in every tool. */
export function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, stemmed);
  }
  return stemmed;
}

/** Content words of a text: split, lowercased, stopwords and single letters removed (not stemmed). */
export function contentWords(text: string): string[] {
  return splitWords(text).filter(
    (word) => !STOPWORDS.has(word) && !(word.length === 1 && charKind(word, 0) !== DIGIT),
  );
}

/** Index terms of a text: content words, stemmed. */
export function analyze(text: string): string[] {
  return contentWords(text).map(stem);
}
