import { describe, expect, it } from 'vitest';
import { clipChars, clipMarked, clipNoted } from './clip-chars';
import { Redactor } from './redactor';

describe('clipChars', () => {
  it('keeps a short text whole and cuts a long one at the limit, saying how much is left', () => {
    expect(clipChars('short', 10)).toEqual({ text: 'short', cut: 0 });
    const clipped = clipChars('x'.repeat(110), 100);
    expect(clipped.text.length).toBe(100);
    expect(clipped.cut).toBe(10);
    expect(clipMarked('x'.repeat(110), 100)).toBe(`${'x'.repeat(100)}… [10 more characters cut]`);
    expect(clipMarked('short', 10)).toBe('short');
  });

  it('never ends on half of a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(20)}`;
    const clipped = clipChars(text, 10);
    expect(clipped).toEqual({ text: 'a'.repeat(9), cut: text.length - 9 });
    expect(clipChars(text, 11)).toEqual({ text: `${'a'.repeat(9)}😀`, cut: 20 });
  });

  it("notes a cut in the redactor's words, so a key split by it is still scrubbed on both sides", () => {
    expect(clipNoted('short', 10)).toBe('short');
    const key = 'sk-live-0123456789abcdefCANARY';
    const text = clipNoted(`error: ${key} and more`, 20);
    expect(text).toBe(`error: ${key.slice(0, 13)} [output truncated: ${key.length - 13 + 9} characters cut]`);
    const redactor = new Redactor();
    redactor.add('CANARY', key);
    expect(redactor.redact(text)).toBe('error: [redacted:CANARY] [output truncated: 26 characters cut]');
  });
});
