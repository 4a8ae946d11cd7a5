// Spelling fallback: vocabulary words within a small edit distance of a query word that matched nothing.

/** Finds the closest known words by Damerau–Levenshtein (optimal string alignment) distance. */
export class FuzzyMatcher {
  private readonly byLength = new Map<number, string[]>();

  /** Indexes a vocabulary snapshot; call again when the vocabulary changed. */
  constructor(words: Iterable<string>) {
    for (const word of words) {
      const bucket = this.byLength.get(word.length);
      if (bucket) bucket.push(word);
      else this.byLength.set(word.length, [word]);
    }
  }

  /** Known words at the smallest distance ≤ maxDistance (at most `limit`, in vocabulary order). */
  nearest(word: string, maxDistance: number, limit = 4): { words: string[]; distance: number } {
    let best = maxDistance + 1;
    let found: string[] = [];
    for (let length = word.length - maxDistance; length <= word.length + maxDistance; length++) {
      for (const candidate of this.byLength.get(length) ?? []) {
        const distance = boundedDistance(word, candidate, Math.min(best, maxDistance));
        if (distance < best) {
          best = distance;
          found = [candidate];
        } else if (distance === best && found.length < limit) {
          found.push(candidate);
        }
      }
    }
    return { words: best <= maxDistance ? found : [], distance: best };
  }
}

/** The largest distance worth correcting for a word of this length. */
export function maxTypoDistance(word: string): number {
  if (word.length < 4) return 0;
  return word.length >= 8 ? 2 : 1;
}

/** Optimal string alignment distance, or max + 1 as soon as it must exceed max. */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  if (rows[0].length < width) for (let r = 0; r < 3; r++) rows[r] = new Int32Array(width * 2);
  let previous2 = rows[0];
  let previous = rows[1];
  let current = rows[2];
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const charA = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const charB = b.charCodeAt(j - 1);
      let value = (previous[j - 1] as number) + (charA === charB ? 0 : 1);
      const insert = (current[j - 1] as number) + 1;
      const remove = (previous[j] as number) + 1;
      if (insert < value) value = insert;
      if (remove < value) value = remove;
      if (i > 1 && j > 1 && charA === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === charB) {
        const transpose = (previous2[j - 2] as number) + 1;
        if (transpose < value) value = transpose;
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    const spare = previous2;
    previous2 = previous;
    previous = current;
    current = spare;
  }
  const distance = previous[b.length] as number;
  return distance > max ? max + 1 : distance;
}

// Three reusable DP rows: the matcher runs synchronously, so one set serves every call.
const rows: [Int32Array, Int32Array, Int32Array] = [
  new Int32Array(64),
  new Int32Array(64),
  new Int32Array(64),
];
