import { describe, expect, it } from 'vitest';
import { enumArg, integerArg, stringArg, timeoutArg, urlArg } from './arguments';

describe('web tool arguments', () => {
  it('clamps timeouts to their maximum and applies the default', () => {
    expect(timeoutArg({}, 'timeout', 60, 300)).toBe(60_000);
    expect(timeoutArg({ timeout: null }, 'timeout', 60, 300)).toBe(60_000);
    expect(timeoutArg({ timeout: 100_000 }, 'timeout', 60, 300)).toBe(300_000);
    expect(timeoutArg({ timeout: 900 }, 'timeout', 120, 600)).toBe(600_000);
    expect(timeoutArg({ timeout: 0.5 }, 'timeout', 60, 300)).toBe(500);
    expect(() => timeoutArg({ timeout: '10' }, 'timeout', 60, 300)).toThrow(/`timeout` must be a number/);
  });

  it('names the parameter in every error', () => {
    expect(() => stringArg({ q: 3 }, 'q', true)).toThrow('`q` must be a string, not number');
    expect(() => integerArg({ n: 1.5 }, 'n', 1, 1, 4)).toThrow('`n` must be a whole number from 1 to 4');
    expect(enumArg({ m: 'post' }, 'm', ['GET', 'POST'] as const, 'GET')).toBe('POST');
    expect(() => urlArg('https://x.example/${secret:K}?', 'url', 'shown')).not.toThrow();
    expect(() => urlArg('::', 'url', 'https://${secret:K}')).toThrow('got "https://${secret:K}"');
  });
});
