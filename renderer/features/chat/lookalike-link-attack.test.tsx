// @vitest-environment jsdom
// A steered model writes a link whose text is its own address, but that address is a lookalike: a host in another
// script (`githuЬ.com`, a Cyrillic `Ь`) or user info before the real host
// (`https://github.com%2Flogin%2F…@evil.example/`). The text "names the host", so no real host was shown after it,
// and the person read github.com. The real host is shown, in ASCII as browsers do (docs/security.md, "Data leaving
// the machine").
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './markdown-view';

afterEach(cleanup);

const links = (text: string) => {
  const { container } = render(<MarkdownView text={text} />);
  return [...container.querySelectorAll('a')];
};

describe('lookalike link texts in a reply', () => {
  it('a host in another script shows its ASCII form after the link', () => {
    const found = links(
      [
        '[https://githuЬ.com/login](https://githuЬ.com/login)',
        '<https://аpple.com/account>',
        '[pаypal.com](https://pаypal.com/)',
      ].join('\n\n'),
    );
    expect(found).toHaveLength(3);
    expect(found[0]?.textContent).toContain('(xn--githu-10e.com)');
    expect(found[1]?.textContent).toContain('(xn--pple-43d.com)');
    expect(found[2]?.textContent).toContain('(xn--pypal-4ve.com)');
  });

  it('a text with user info before the real host shows that host after the link', () => {
    const [link] = links(
      '[https://github.com%2Flogin%2Foauth%2Fauthorize@evil.example/](https://evil.example/)',
    );
    expect(link?.getAttribute('href')).toBe('https://evil.example/');
    expect(link?.textContent?.endsWith(' (evil.example)')).toBe(true);
  });

  it('an ASCII address as its own text is still shown as it is', () => {
    const [link] = links('<https://github.com/owner/repo> and [docs.python.org](https://docs.python.org/3/)');
    expect(link?.textContent).toBe('https://github.com/owner/repo');
    expect(links('[docs.python.org](https://docs.python.org/3/)')[0]?.textContent).toBe('docs.python.org');
  });
});
