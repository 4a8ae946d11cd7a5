// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { formatDuration, formatLimit } from './format-duration';

describe('formatDuration', () => {
  it('reads well at every scale', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(42_900)).toBe('42 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
    expect(formatDuration(-5)).toBe('0 s');
    expect(formatLimit(null)).toBe('no limit');
    expect(formatLimit(1_800_000)).toBe('30 min 00 s');
  });
});
