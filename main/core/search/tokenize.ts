// Tool names and free text to index terms: split identifiers, lowercase, drop stopwords, stem.
import { stemmer } from 'stemmer';
import { STOPWORDS } from './stopwords';

const STEM_CACHE_LIMIT = 50_000;
const stemCache = new Map<string, string>();

/**
 * Splits text into lowercase words: snake_case, kebab-case, camelCase, acronyms (HTTPServer) and
 * letter–digit runs (sha256 → sha256, sha, 256). Keeps stopwords; see `analyze` for index terms.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  const runs = text.match(/[\p{L}\p{N}]+/gu);
  if (!runs) return words;
  for (const run of runs) {
    const parts = run
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .split(' ');
    for (const part of parts) pushPart(words, part.toLowerCase());
  }
  return words;
}

// A mixed letter–digit part is kept whole (s3, ec2, sha256 are names) and also split, so "sha" or "256"
// alone still match.
function pushPart(words: string[], part: string): void {
  if (part.length === 0) return;
  words.push(part);
  if (!/\p{L}/u.test(part) || !/\p{N}/u.test(part)) return;
  for (const piece of part.match(/\p{L}+|\p{N}+/gu) ?? []) {
    if (piece.length > 1 || /\p{N}/u.test(piece)) words.push(piece);
  }
}

/** Whether a lowercase word is a stopword. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
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
  return splitWords(text).filter((word) => !STOPWORDS.has(word) && !/^\p{L}$/u.test(word));
}

/** Index terms of a text: content words, stemmed. */
export function analyze(text: string): string[] {
  return contentWords(text).map(stem);
}
