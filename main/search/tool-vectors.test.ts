// The tool vectors held in memory (docs/search.md, "Embeddings (optional)"): what is taken, what is refused, what is
// dropped, and the query vectors kept.
import { describe, expect, it } from 'vitest';
import { MAX_VECTOR_DIMENSIONS } from './semantic-limits';
import {
  keepOnly,
  MatrixCache,
  newModelVectors,
  RecentVectors,
  takeVector,
  VectorLengthChanged,
  vectorLimit,
} from './tool-vectors';

const vector = (length: number, fill = 1) => new Float32Array(length).fill(fill);

describe('tool vectors', () => {
  it('takes vectors of one length, refuses another (an error from the model, silently from the cache)', () => {
    const set = newModelVectors('m');
    expect(takeVector(set, { name: 'a', hash: 'h1', vector: vector(4) }, 'model', 10)).toBe(true);
    expect(set.length).toBe(4);
    expect(takeVector(set, { name: 'b', hash: 'h2', vector: vector(8) }, 'cache', 10)).toBe(false);
    expect(() => takeVector(set, { name: 'b', hash: 'h2', vector: vector(8) }, 'model', 10)).toThrow(
      VectorLengthChanged,
    );
    expect(() =>
      takeVector(
        newModelVectors('m'),
        { name: 'c', hash: 'h', vector: vector(MAX_VECTOR_DIMENSIONS + 1) },
        'model',
        10,
      ),
    ).toThrow(/at most 8192/);
    expect([...set.vectors.keys()]).toEqual(['a']);
  });

  it('holds no more tools than its limit, but still replaces a held tool’s vector', () => {
    const set = newModelVectors('m');
    expect(takeVector(set, { name: 'a', hash: 'h1', vector: vector(2) }, 'model', 1)).toBe(true);
    expect(takeVector(set, { name: 'b', hash: 'h1', vector: vector(2) }, 'model', 1)).toBe(false);
    expect(takeVector(set, { name: 'a', hash: 'h2', vector: vector(2, 2) }, 'model', 1)).toBe(true);
    expect(set.vectors.get('a')?.hash).toBe('h2');
    expect(vectorLimit(set, 10)).toBe(5);
  });

  it('drops the vectors of tools that are gone, and rebuilds the matrix only then', () => {
    const set = newModelVectors('m');
    for (const name of ['a', 'b', 'c']) takeVector(set, { name, hash: 'h', vector: vector(2) }, 'model', 10);
    const tools = ['a', 'b', 'c'].map((name) => ({ name, hash: 'h' }));
    const matrices = new MatrixCache();
    const first = matrices.of(set, tools);
    expect(matrices.of(set, tools)).toBe(first);
    expect(first.names).toEqual(['a', 'b', 'c']);
    keepOnly(set, new Set(['a', 'c']));
    expect([...set.vectors.keys()]).toEqual(['a', 'c']);
    const second = matrices.of(set, tools);
    expect(second).not.toBe(first);
    expect(second.names).toEqual(['a', 'c']);
    expect(matrices.rows(second).get('c')).toBe(1);
  });

  it('keeps the most recently used query vectors', () => {
    const recent = new RecentVectors(2);
    recent.set('x', vector(1, 1));
    recent.set('y', vector(1, 2));
    expect(recent.use('x')?.[0]).toBe(1);
    recent.set('z', vector(1, 3));
    expect(recent.has('y')).toBe(false);
    expect(recent.has('x')).toBe(true);
    expect(recent.has('z')).toBe(true);
  });
});
