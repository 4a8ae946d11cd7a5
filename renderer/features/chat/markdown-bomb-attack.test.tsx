// @vitest-environment jsdom
// A steered model (or a page it read) writes a short reply built to break the Markdown renderer: 3,000 nested block
// quotes (3 KB) overflow the stack, 3,000 nested list markers take ten seconds and then overflow it, 20,000 open
// brackets take seconds of quadratic work. The throw unmounts the whole page (browser mode's approval dialogs with
// it) and, as the chat is reopened on load, on every reload. Such a reply is shown as its plain text instead
// (docs/robustness.md, "The renderer").
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './markdown-view';

afterEach(cleanup);

function timed(text: string): { ms: number; shown: string } {
  const start = performance.now();
  const { container } = render(<MarkdownView text={text} />);
  return { ms: performance.now() - start, shown: container.textContent ?? '' };
}

describe('a reply built to stall or crash the Markdown renderer', () => {
  it.each([
    ['3,000 nested quotes', `${'>'.repeat(3000)} boom`],
    ['3,000 nested lists on one line', `${'- '.repeat(3000)}boom`],
    [
      '400 nested lists by indentation',
      Array.from({ length: 400 }, (_, i) => `${'  '.repeat(i)}- boom`).join('\n'),
    ],
    ['20,000 open brackets', `${'['.repeat(20000)}boom${']'.repeat(20000)}`],
  ])(
    '%s: shown as text, at once',
    (_name, text) => {
      const { ms, shown } = timed(text);
      expect(shown).toContain('boom');
      expect(ms).toBeLessThan(1500);
    },
    60_000,
  );

  it('ordinary Markdown is still rendered as Markdown', () => {
    const { container } = render(
      <MarkdownView text={'> quoted\n\n- a\n  - b\n    - c\n\n[link](https://example.com/) and **bold**'} />,
    );
    expect(container.querySelector('blockquote')).not.toBeNull();
    expect(container.querySelectorAll('ul')).toHaveLength(3);
    expect(container.querySelector('strong')?.textContent).toBe('bold');
  });
});
