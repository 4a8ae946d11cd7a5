import { describe, expect, it } from 'vitest';
import { boundedDistance, FuzzyMatcher, maxTypoDistance } from './fuzzy-matcher';

describe('boundedDistance', () => {
  it('counts edits, a transposition as one', () => {
    expect(boundedDistance('issue', 'issue', 2)).toBe(0);
    expect(boundedDistance('isue', 'issue', 2)).toBe(1);
    expect(boundedDistance('lsit', 'list', 2)).toBe(1);
    expect(boundedDistance('kitten', 'sitting', 3)).toBe(3);
  });

  it('stops at max + 1', () => {
    expect(boundedDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(boundedDistance('a', 'abcdef', 1)).toBe(2);
  });
});

describe('FuzzyMatcher', () => {
  const matcher = new FuzzyMatcher(['create', 'created', 'issue', 'list', 'lists', 'repository']);

  it('returns the closest words only', () => {
    expect(matcher.nearest('isue', 1)).toEqual({ words: ['issue'], distance: 1 });
    expect(matcher.nearest('lsit', 1).words).toEqual(['list']);
    expect(matcher.nearest('repsoitory', 2).words).toEqual(['repository']);
    expect(matcher.nearest('zzzz', 1).words).toEqual([]);
  });

  it('allows more edits for longer words and none for short ones', () => {
    expect(maxTypoDistance('ab')).toBe(0);
    expect(maxTypoDistance('isue')).toBe(1);
    expect(maxTypoDistance('repsoitory')).toBe(2);
  });
});
