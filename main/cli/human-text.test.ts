import { describe, expect, it } from 'vitest';
import { callFailed, humanDuration, outcomeLine } from './human-text';

describe('humanDuration', () => {
  it('says a limit as people do, leaving out zero parts', () => {
    expect(
      [850, 1500, 45_000, 90_000, 1_800_000, 3_600_000, 5_400_000, 86_400_000].map(humanDuration),
    ).toEqual(['850 ms', '1.5 s', '45 s', '1 min 30 s', '30 min', '1 h', '1 h 30 min', '24 h']);
  });
});

describe('outcomeLine and callFailed', () => {
  it('says the kind once, and keeps an error code', () => {
    expect(outcomeLine('denied', 'denied: x needs approval')).toBe('denied: x needs approval');
    expect(outcomeLine('denied', 'the user said no')).toBe('denied: the user said no');
    expect(outcomeLine('timed_out', 'timed out after 5 s')).toBe('timed out after 5 s');
    expect(outcomeLine('error', 'tool failed: boom', 'tool_failed')).toBe(
      'error [tool_failed]: tool failed: boom',
    );
  });

  it('counts a command that exited non-zero or was killed as failed', () => {
    const ok = (data?: unknown) => ({ outcome: 'ok' as const, text: '', content: [], data, durationMs: 1 });
    expect(callFailed(ok())).toBe(false);
    expect(callFailed(ok({ exitCode: 0, signal: null }))).toBe(false);
    expect(callFailed(ok({ exitCode: 2, signal: null }))).toBe(true);
    expect(callFailed(ok({ exitCode: null, signal: 'SIGKILL' }))).toBe(true);
    expect(callFailed({ outcome: 'denied', message: 'denied: no' })).toBe(true);
  });
});
