import { describe, expect, it } from 'vitest';
import { topK } from './top-k';

describe('topK', () => {
  const scores: Record<string, number> = { a: 1, b: 5, c: 3, d: 5, e: 0.5 };
  const pick = (k: number): string[] =>
    topK(
      Object.keys(scores),
      k,
      (name) => scores[name] ?? 0,
      (name) => name,
    );

  it('keeps the k best, best first, ties by name', () => {
    expect(pick(3)).toEqual(['b', 'd', 'c']);
    expect(pick(10)).toEqual(['b', 'd', 'c', 'a', 'e']);
  });

  it('returns nothing for k ≤ 0', () => {
    expect(pick(0)).toEqual([]);
  });
});
