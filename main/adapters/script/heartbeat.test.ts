import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProgressUpdate } from '../../../tools/sdk/types';
import { AppLogger } from '../../core/logger';
import { Redactor } from '../../core/redactor';
import { elapsedText, HEARTBEAT_MS, startHeartbeat } from './heartbeat';

afterEach(() => {
  vi.useRealTimers();
});

describe('heartbeat', () => {
  it('writes `INFO running name=<name> elapsed=<Y>s/<Z>s` every 30 s and reports the same as progress', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const progress: ProgressUpdate[] = [];
    const stop = startHeartbeat({
      name: 'script_report',
      limitMs: 900_000,
      log: new AppLogger(null, new Redactor(), {}, (line) => lines.push(line)),
      progress: (update) => progress.push(update),
    });
    vi.advanceTimersByTime(HEARTBEAT_MS - 1);
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(1 + HEARTBEAT_MS);
    stop();
    vi.advanceTimersByTime(HEARTBEAT_MS * 3);
    expect(lines.map((line) => line.replace(/^\S+ /, ''))).toEqual([
      'INFO running name=script_report elapsed=30s/900s',
      'INFO running name=script_report elapsed=60s/900s',
    ]);
    expect(progress).toEqual([{ message: 'running 30s/900s' }, { message: 'running 60s/900s' }]);
  });

  it('formats elapsed and limit in whole seconds', () => {
    expect(elapsedText(29_999, 1500)).toBe('29s/2s');
    expect(elapsedText(0, Number.POSITIVE_INFINITY)).toBe('0s/none');
  });
});
