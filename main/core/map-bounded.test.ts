import { describe, expect, it } from 'vitest';
import { mapBounded } from './map-bounded';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapBounded', () => {
  it('keeps the items’ order whatever order the steps finish in, with at most `limit` in flight', async () => {
    let running = 0;
    let most = 0;
    const items = Array.from({ length: 40 }, (_, i) => i);
    const results = await mapBounded(items, 6, async (item) => {
      running++;
      most = Math.max(most, running);
      await tick((item * 7) % 5);
      running--;
      return item * 2;
    });
    expect(results).toEqual(items.map((item) => item * 2));
    expect(most).toBe(6);
  });

  it('rejects with the first error, starts no step after it, and leaves none running', async () => {
    const started: number[] = [];
    let running = 0;
    const failing = mapBounded([0, 1, 2, 3, 4, 5, 6, 7], 2, async (item) => {
      started.push(item);
      running++;
      await tick(item === 1 ? 1 : 5);
      running--;
      if (item === 1) throw new Error('step 1 failed');
      return item;
    });
    await expect(failing).rejects.toThrow('step 1 failed');
    expect(running).toBe(0);
    expect(started).toEqual([0, 1]);
  });

  it('handles no items and odd limits', async () => {
    expect(await mapBounded([], 4, async (item: number) => item)).toEqual([]);
    expect(await mapBounded([1, 2, 3], 0, async (item) => item + 1)).toEqual([2, 3, 4]);
    expect(await mapBounded([1, 2, 3], Number.NaN, async (item) => item + 1)).toEqual([2, 3, 4]);
  });
});
