import { describe, expect, it } from 'vitest';
import { OUTPUT_BATCH_CHARS, OUTPUT_FLUSH_MS, OutputProgress } from './output-progress';
import type { ProgressUpdate } from '../sdk/types';

describe('OutputProgress', () => {
  it('batches many small chunks into few updates, in order', async () => {
    const updates: ProgressUpdate[] = [];
    const output = new OutputProgress((u) => updates.push(u));
    for (let i = 0; i < 1000; i++) output.push(`${i}\n`);
    expect(updates).toHaveLength(0);
    await new Promise((r) => setTimeout(r, OUTPUT_FLUSH_MS + 50));
    output.push('last\n');
    output.flush();
    expect(updates).toHaveLength(2);
    expect(updates.map((u) => u.output).join('')).toBe(
      `${Array.from({ length: 1000 }, (_, i) => `${i}\n`).join('')}last\n`,
    );
  });

  it('keeps the tail of a burst and says how much it skipped', () => {
    const updates: ProgressUpdate[] = [];
    const output = new OutputProgress((u) => updates.push(u));
    output.push('a'.repeat(OUTPUT_BATCH_CHARS));
    output.push('b'.repeat(1000));
    output.flush();
    expect(updates).toHaveLength(1);
    expect(updates[0]?.output).toBe(
      `[1,000 characters skipped]\n${'a'.repeat(OUTPUT_BATCH_CHARS - 1000)}${'b'.repeat(1000)}`,
    );
    output.flush();
    expect(updates).toHaveLength(1);
  });
});
