// @vitest-environment jsdom
// A model's reasoning holds a bidi override: `I will only run invoice<RLO>fdp.sh` reads as `… invoicehs.pdf`, and an
// override runs on to the end of its paragraph, reversing what follows. The reply's own text shows such controls as
// escapes (hidden-characters.ts), but the reasoning under it, which the person reads to judge what the model is about
// to do, showed them as written. It shows them as escapes too (docs/security.md, "What the person sees").
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ReasoningDisclosure } from './reasoning-disclosure';

afterEach(cleanup);

const RLO = '\u202e';
const LRI = '\u2066';
const PDI = '\u2069';

describe('bidi controls in reasoning', () => {
  it('are shown as escapes, as in the reply', () => {
    const { container } = render(
      <ReasoningDisclosure
        parts={[
          { type: 'reasoning', text: `The person wants the invoice. I will only open invoice${RLO}fdp.sh.` },
          { type: 'reasoning', text: `Then ${LRI}rm -rf ~${PDI} is not needed.` },
        ]}
        streaming={false}
      />,
    );
    const shown = container.querySelector('.reasoning-text')?.textContent ?? '';
    expect(shown).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/u);
    expect(shown).toContain('invoice\\u{202e}fdp.sh');
    // Right-to-left text needs no controls and stays as written.
    const hebrew = render(
      <ReasoningDisclosure parts={[{ type: 'reasoning', text: 'שלום' }]} streaming={false} />,
    );
    expect(hebrew.container.querySelector('.reasoning-text')?.textContent).toBe('שלום');
  });
});
