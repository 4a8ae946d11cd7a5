// @vitest-environment jsdom
// A steered model's reply links to this machine by one of its network addresses, or to the network it is on: a
// service bound to every interface (a dev server started with --host, Jupyter, a Docker-published port) answers on the
// machine's LAN address, its Docker bridge (172.17.0.1) or its link-local IPv6 address as on 127.0.0.1, and a router's
// or printer's admin page takes a GET too. One click on "release notes" sent `GET /admin/delete?all=1&d=CHATDATA` to a
// local service through the machine's own LAN address. No address outside the public internet is a link, nor a name
// only a local network resolves (docs/security.md, "Data leaving the machine").
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownView } from './markdown-view';

afterEach(cleanup);

const hrefs = (text: string) => {
  const { container } = render(<MarkdownView text={text} />);
  return [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
};

describe("links to this machine's network addresses and the local network", () => {
  it('are not links', () => {
    const local = [
      'http://192.0.2.2:18081/admin/delete?all=1&d=CHATDATA',
      'http://192.168.1.1/apply.cgi?reboot=1',
      'http://10.0.0.5:8080/',
      'http://172.17.0.1:3000/api',
      'http://172.31.255.1/',
      'http://100.64.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://0xc0.0xa8.1.1/',
      'http://3232235777/',
      'http://[fd00::2]:8888/tree',
      'http://[fe80::fc:ff:fe00:1]/',
      'http://[ff02::1]/',
      'http://[::ffff:192.168.1.1]/',
      'http://[64:ff9b::10.0.0.1]/',
      'http://my-mac.local:3000/',
      'http://MY-MAC.LOCAL./',
      'http://printer.home.arpa/',
      'http://db.internal:5984/_utils',
      'http://nas.lan/',
    ];
    expect(hrefs(local.map((url) => `[release notes](${url})`).join('\n\n'))).toEqual([]);
  });

  it('public addresses and names stay links', () => {
    expect(
      hrefs(
        [
          '<https://github.com/owner/repo>',
          '[a](http://8.8.8.8/)',
          '[b](http://172.32.0.1/)',
          '[c](http://100.128.0.1/)',
          '[e](https://localization.example.com/)',
        ].join(' '),
      ),
    ).toEqual([
      'https://github.com/owner/repo',
      'http://8.8.8.8/',
      'http://172.32.0.1/',
      'http://100.128.0.1/',
      'https://localization.example.com/',
    ]);
  });
});
