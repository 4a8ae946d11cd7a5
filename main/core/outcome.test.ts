import { describe, expect, it } from 'vitest';
import { capText, okOutcome } from './outcome';

describe('capText', () => {
  it('returns short text as it is, without measuring it', () => {
    const text = 'x'.repeat(33);
    expect(capText(text, 100)).toBe(text);
  });

  it('measures text whose length alone cannot tell: multi-byte text under the cap stays whole', () => {
    // 40 × "é" is 80 bytes, though 40 UTF-16 units could be 120.
    const text = 'é'.repeat(40);
    expect(capText(text, 100)).toBe(text);
  });

  it('cuts multi-byte text past the cap on a character boundary, with the note', () => {
    const capped = capText('é'.repeat(60), 100);
    expect(capped).toBe(`${'é'.repeat(50)}\n[output truncated: 20 bytes cut]`);
  });

  it('is what okOutcome applies to every text part', () => {
    const outcome = okOutcome({ content: [{ type: 'text', text: 'a'.repeat(2 * 1024 * 1024) }] }, 0);
    expect(outcome.outcome === 'ok' && outcome.text.endsWith('[output truncated: 1,048,576 bytes cut]')).toBe(
      true,
    );
  });
});
