import { describe, expect, it } from 'vitest';
import { formatCount, formatUsd, usageText } from './usage-text';
import type { UsageTotal } from './usage-sum';

const total = (patch: Partial<UsageTotal> = {}): UsageTotal => ({
  inputTokens: 1_234_567,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  partial: [],
  costUsd: 0,
  unpriced: [],
  costNeedsCounts: false,
  unreported: 0,
  ...patch,
});

describe('usage text', () => {
  it('formats counts and dollars: cents from a dollar up, four decimals below, never a false zero', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(null)).toBe('?');
    expect([0, 0.0213, 0.00004, 1.5, 1234.567].map(formatUsd)).toEqual([
      '$0.00',
      '$0.0213',
      '< $0.0001',
      '$1.50',
      '$1,234.57',
    ]);
  });

  it('keeps known zeros quiet, says every gap in the note', () => {
    expect(usageText(total())).toEqual({ text: '1,234,567 in · 0 out · $0.00', note: '' });
    const gaps = usageText(
      total({
        inputTokens: null,
        cacheReadTokens: 12,
        cacheWriteTokens: null,
        partial: ['cacheReadTokens'],
        costUsd: null,
        unpriced: ['a', 'b'],
        unreported: 2,
      }),
    );
    expect(gaps.text).toBe('? in · ≥12 cached · 0 out · 2 rounds not reported');
    expect(gaps.note).toBe(
      '? marks a count the server did not report. ≥ marks a count only some rounds reported. ' +
        'The server did not report cache writes. No price for a, b. ' +
        'A round that reported no usage (stopped early, or from before usage was kept) is in none of the counts.',
    );
  });
});
