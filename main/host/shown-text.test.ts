// Hidden characters on cards and in the rules list (docs/security.md, "What the person sees").
import { describe, expect, it } from 'vitest';
import { shownArgs, shownText } from './shown-text';

describe('shownText and shownArgs', () => {
  it('escape bidi, zero-width and control characters, keep line breaks and tabs', () => {
    expect(shownText('a\u202eb\u200bc\u0085d\u001be\tf\r\ng\rh')).toBe(
      'a\\u{202e}b\\u{200b}c\\u{0085}d\\u{001b}e\tf\ng\nh',
    );
    expect(shownText('plain text')).toBe('plain text');
  });

  it('show every string of the arguments, keys too, and stay JSON', () => {
    const args = JSON.stringify({
      'pa\u2066th': ['x\u202ey', { deep: 'z\u200f' }],
      n: 1,
      ok: true,
      none: null,
    });
    expect(JSON.parse(shownArgs(args))).toEqual({
      'pa\\u{2066}th': ['x\\u{202e}y', { deep: 'z\\u{200f}' }],
      n: 1,
      ok: true,
      none: null,
    });
    const clean = JSON.stringify({ command: 'ls -la' });
    expect(shownArgs(clean)).toBe(clean);
  });

  it('show arguments that are not JSON, or nest too deep to walk, as text', () => {
    expect(shownArgs('{"command": "rm\u202e')).toBe('{"command": "rm\\u{202e}');
    const deep = `${'['.repeat(200_000)}"\u202e"${']'.repeat(200_000)}`;
    const shown = shownArgs(deep);
    expect(shown).not.toMatch(/\u202e/u);
    expect(shown).toContain('\\u{202e}');
  });
});
