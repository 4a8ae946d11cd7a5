import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_STREAM_LIMITS } from '../agent/providers/stream-limits';
import { streamLimits } from '../agent/turn-limits';
import { DEFAULT_LIMITS, parseLimits, readLimits } from './limits';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-limits-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('settings.json limits', () => {
  it('defaults to 1 MiB of arguments, 8 MiB per event and 300 s waits, with no file or no block', () => {
    expect(readLimits(path.join(dir, 'missing.json'))).toEqual({ limits: DEFAULT_LIMITS, warnings: [] });
    fs.writeFileSync(path.join(dir, 'broken.json'), '{');
    expect(readLimits(path.join(dir, 'broken.json')).limits).toEqual(DEFAULT_LIMITS);
    expect(DEFAULT_LIMITS).toEqual({
      toolArgumentsBytes: 1048576,
      providerEventBytes: 8388608,
      providerFirstByteSeconds: 300,
      providerIdleSeconds: 300,
    });
    // The same defaults a provider applies when it is given no limits.
    expect(streamLimits(DEFAULT_LIMITS)).toEqual(DEFAULT_STREAM_LIMITS);
  });

  it('takes usable values, fractions of a second included, and converts them for the stream', () => {
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        limits: { toolArgumentsBytes: 2048, providerFirstByteSeconds: 0.25, providerIdleSeconds: 600 },
      }),
    );
    const { limits, warnings } = readLimits(file);
    expect(warnings).toEqual([]);
    expect(streamLimits(limits)).toEqual({
      eventBytes: 8388608,
      firstByteMs: 250,
      idleMs: 600_000,
      toolCallBytes: 2048,
    });
  });

  it('names each unusable value and unknown key, and keeps the default for it', () => {
    const { limits, warnings } = parseLimits(
      { toolArgumentsBytes: 1.5, providerEventBytes: -1, providerIdleSeconds: '300', extra: 1 },
      'settings.json',
    );
    expect(limits).toEqual(DEFAULT_LIMITS);
    expect(warnings).toEqual([
      'settings.json: "limits.toolArgumentsBytes" must be a whole number of bytes from 1024 to 1073741824 (got 1.5); the default 1048576 (1 MiB) applies',
      'settings.json: "limits.providerEventBytes" must be a whole number of bytes from 1024 to 1073741824 (got -1); the default 8388608 (8 MiB) applies',
      'settings.json: "limits.providerIdleSeconds" must be a number of seconds from 0.01 to 86400 (got "300"); the default 300 s applies',
      'settings.json: unknown key "limits.extra" is ignored',
    ]);
    expect(parseLimits([1, 2], 'f').warnings).toEqual([
      'f: "limits" must be an object (got an array of 2); the default limits apply',
    ]);
  });
});
