// The fusion of the lexical and the semantic ranking, and the vectors it compares.
import { describe, expect, it } from 'vitest';
import {
  closestTools,
  fuseRankings,
  LEXICAL_SHARE,
  matchStrength,
  SEMANTIC_FULL_Z,
  SEMANTIC_MIN_Z,
  unitVector,
} from './semantic-fusion';

const unit = (values: number[]) => unitVector(values) as Float32Array;

describe('semantic fusion', () => {
  it('unit vectors: scaled to length 1; NaN, Infinity and all zeros are refused', () => {
    expect([...unit([3, 4])]).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(unitVector([Number.NaN, 1])).toBeNull();
    expect(unitVector([Number.POSITIVE_INFINITY, 1])).toBeNull();
    expect(unitVector([0, 0])).toBeNull();
    expect(unitVector([1e200, 1e200])).toBeNull();
  });

  it('the closest tools are those that stand out from the catalogue, best first', () => {
    const tools = [
      { name: 'near', vector: unit([1, 0.1, 0]) },
      { name: 'far_a', vector: unit([0, 1, 0]) },
      { name: 'far_b', vector: unit([0, 0, 1]) },
      { name: 'far_c', vector: unit([0, 1, 1]) },
      { name: 'short', vector: unit([1, 0]) },
    ];
    const closest = closestTools([unit([1, 0, 0])], tools);
    expect(closest.map((entry) => entry.name)).toEqual(['near']);
    expect(closest[0]?.similarity).toBeCloseTo(0.995, 3);
    expect(closest[0]?.standing).toBeGreaterThan(SEMANTIC_MIN_Z);
    // Every tool alike: the vectors say nothing.
    expect(closestTools([unit([1, 0])], [{ name: 'a', vector: unit([0, 1]) }])).toEqual([]);
  });

  it('a weighted sum of normalised scores: lexical by its share and strength, semantic by its standing; an exact name stays first', () => {
    const hit = (name: string, score: number, weight = 1) => ({
      name,
      score,
      matches: [{ weight }],
      unmatched: [],
    });
    const pour = { name: 'pour_drink', similarity: 0.8, standing: 4 };
    // Lexical best 10 → 0.7; pour_drink: 0.7 × 6/10 + 0.3 × 1 = 0.72.
    const strong = fuseRankings([hit('generate_image', 10), hit('pour_drink', 6)], [pour], { limit: 5 });
    expect(strong.map((entry) => entry.name)).toEqual(['pour_drink', 'generate_image']);
    expect(strong[0]).toMatchObject({ lexicalRank: 2, semanticRank: 1, similarity: 0.8 });
    expect(strong[0]?.score).toBeCloseTo(LEXICAL_SHARE * 0.6 + (1 - LEXICAL_SHARE), 9);
    expect(strong[1]?.score).toBeCloseTo(LEXICAL_SHARE, 9);
    // The tenth lexical hit is not almost the first: far behind, a close tool does not pass the best keyword match
    // (reciprocal rank fusion put it first).
    const far = fuseRankings([hit('generate_image', 10), hit('pour_drink', 1)], [{ ...pour, standing: 3 }], {
      limit: 5,
    });
    expect(far.map((entry) => entry.name)).toEqual(['generate_image', 'pour_drink']);
    // A weak lexical match (related words only) yields to a close semantic one it does not hold.
    const weak = fuseRankings([hit('generate_image', 10, 0.2)], [pour], { limit: 5 });
    expect(weak.map((entry) => entry.name)).toEqual(['pour_drink', 'generate_image']);
    // Standing below SEMANTIC_MIN_Z adds nothing; at SEMANTIC_FULL_Z and past it, the whole share.
    const low = fuseRankings([], [{ ...pour, standing: SEMANTIC_MIN_Z }], { limit: 5 });
    expect(low[0]?.score).toBe(0);
    const past = fuseRankings([], [{ ...pour, standing: SEMANTIC_FULL_Z + 5 }], { limit: 5 });
    expect(past[0]?.score).toBeCloseTo(1 - LEXICAL_SHARE, 9);
    // Equal scores (0.7 × 3/7 = 0.3): the lexical ranking wins the tie.
    const tie = fuseRankings(
      [hit('generate_image', 1, (1 - LEXICAL_SHARE) / LEXICAL_SHARE)],
      [{ ...pour, standing: SEMANTIC_FULL_Z }],
      { limit: 5 },
    );
    expect(tie.map((entry) => entry.name)).toEqual(['generate_image', 'pour_drink']);
    const exact = fuseRankings([hit('send_message', 1, 0)], [pour], { limit: 1, exact: ['send_message'] });
    expect(exact.map((entry) => entry.name)).toEqual(['send_message']);
  });

  it('match strength: the share of the query a hit matched, related words counting less', () => {
    expect(matchStrength({ matches: [{ weight: 1 }, { weight: 1 }], unmatched: [] })).toBe(1);
    expect(matchStrength({ matches: [{ weight: 0.22 }], unmatched: ['quench'] })).toBeCloseTo(0.11, 6);
    expect(matchStrength({ matches: [], unmatched: [] })).toBe(0);
    expect(matchStrength({ matches: [{ weight: 7 }], unmatched: [] })).toBe(1);
  });
});
