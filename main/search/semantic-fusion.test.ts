// The fusion of the lexical and the semantic ranking, and the vectors it compares.
import { describe, expect, it } from 'vitest';
import { closestTools, fuseRankings, matchStrength, SEMANTIC_FUSION_K, unitVector } from './semantic-fusion';

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
    // Every tool alike: the vectors say nothing.
    expect(closestTools([unit([1, 0])], [{ name: 'a', vector: unit([0, 1]) }])).toEqual([]);
  });

  it('reciprocal rank fusion, the lexical ranking weighed by its strength; an exact name stays first', () => {
    const semantic = [{ name: 'pour_drink', similarity: 0.8 }];
    const strong = fuseRankings(['generate_image', 'pour_drink'], semantic, { limit: 5 });
    expect(strong.map((entry) => entry.name)).toEqual(['pour_drink', 'generate_image']);
    expect(strong[0]).toMatchObject({ lexicalRank: 2, semanticRank: 1, similarity: 0.8 });
    expect(strong[0]?.score).toBeCloseTo(1 / (SEMANTIC_FUSION_K + 2) + 1 / (SEMANTIC_FUSION_K + 1), 9);
    const weak = fuseRankings(['generate_image'], semantic, { limit: 5, lexicalWeight: 0.2 });
    expect(weak.map((entry) => entry.name)).toEqual(['pour_drink', 'generate_image']);
    const even = fuseRankings(['generate_image'], semantic, { limit: 5 });
    // A tie goes to the lexical ranking.
    expect(even.map((entry) => entry.name)).toEqual(['generate_image', 'pour_drink']);
    const exact = fuseRankings(['send_message'], semantic, {
      limit: 1,
      exact: ['send_message'],
      lexicalWeight: 0,
    });
    expect(exact.map((entry) => entry.name)).toEqual(['send_message']);
  });

  it('match strength: the share of the query a hit matched, related words counting less', () => {
    expect(matchStrength({ matches: [{ weight: 1 }, { weight: 1 }], unmatched: [] })).toBe(1);
    expect(matchStrength({ matches: [{ weight: 0.22 }], unmatched: ['quench'] })).toBeCloseTo(0.11, 6);
    expect(matchStrength({ matches: [], unmatched: [] })).toBe(0);
    expect(matchStrength({ matches: [{ weight: 7 }], unmatched: [] })).toBe(1);
  });
});
