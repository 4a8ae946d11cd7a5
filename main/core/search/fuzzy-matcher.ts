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
  let previous2 = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, j) => j);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (previous2[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous2, previous, current] = [previous, current, previous2];
  }
  const distance = previous[b.length] ?? max + 1;
  return distance > max ? max + 1 : distance;
}
