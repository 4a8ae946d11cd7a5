// @vitest-environment jsdom
// A steered model's reply links to this machine by a name no spelling check knows: a hosts-file alias of ::1 that
// Debian and Ubuntu ship (`ip6-localhost`, `ip6-loopback`), or the machine's own host name (`vm`, in /etc/hosts as
// 127.0.0.1 or 127.0.1.1). In browser mode a click goes straight to the browser, with no main process to resolve the
// name first (main/electron/loopback-name-link-attack.test.ts does it in the desktop app), so a GET the model wrote
// reached a local service. A host name without a dot is shown as text, not as a link (docs/security.md, "Data leaving
// the machine").
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './markdown-view';

afterEach(cleanup);

const hrefs = (text: string) => {
  const { container } = render(<MarkdownView text={text} />);
  return [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
};

describe('links to this machine by a name without a dot', () => {
  it('are not links', () => {
    expect(
      hrefs(
        [
          '[the dashboard](http://ip6-localhost:8080/admin?drop=1)',
          '<http://ip6-loopback:5984/_utils>',
          '[status](http://vm:3000/api/delete)',
          '[x](http://IP6-LOCALHOST./)',
        ].join('\n\n'),
      ),
    ).toEqual([]);
  });

  it('public names and addresses stay links', () => {
    expect(hrefs('<https://github.com/owner/repo> [b](http://93.184.215.14/)')).toEqual([
      'https://github.com/owner/repo',
      'http://93.184.215.14/',
    ]);
  });
});
