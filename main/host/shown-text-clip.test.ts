import { describe, expect, it } from 'vitest';
import { CARD_TEXT_CHARS, clipForCard } from './shown-text';

describe('clipForCard', () => {
  it('keeps a short text whole and cuts a long one at the limit, saying how much is left', () => {
    expect(clipForCard('short')).toEqual({ text: 'short', cut: 0 });
    const long = 'x'.repeat(CARD_TEXT_CHARS + 10);
    const clipped = clipForCard(long);
    expect(clipped.text.length).toBe(CARD_TEXT_CHARS);
    expect(clipped.cut).toBe(10);
  });

  it('never ends on half of a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(20)}`;
    const clipped = clipForCard(text, 10);
    expect(clipped).toEqual({ text: 'a'.repeat(9), cut: text.length - 9 });
    expect(clipForCard(text, 11)).toEqual({ text: `${'a'.repeat(9)}😀`, cut: 20 });
  });
});
