// A steered model's chat reply holds a link, and a click hands it to the person's own browser. Links to this machine
// are never handed over (a local dev server, a database console or a router page would act on a GET the model wrote),
// however the address is spelled: a trailing dot, a `*.localhost` name browsers send to loopback, an IPv4-mapped or
// unspecified IPv6 address, numeric IPv4 forms (docs/security.md, "Data leaving the machine").
import { describe, expect, it } from 'vitest';
import { externalLinkAllowed, windowOpenDecision } from './navigation-rules';

describe('links in a chat reply aimed at this machine', () => {
  it('are not opened in the browser, in any spelling of a local address', () => {
    for (const url of [
      'http://localhost./admin?drop=1',
      'http://LOCALHOST:8080/',
      'http://app.localhost:3000/api/delete',
      'http://app.localhost./',
      'http://[::ffff:127.0.0.1]:5984/_utils',
      'http://[::ffff:7f00:1]/',
      'http://[::]:8080/',
      'http://[::ffff:0.0.0.0]/',
      'http://0/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://[0:0:0:0:0:0:0:1]/',
    ]) {
      expect(externalLinkAllowed(url), url).toBe(false);
      expect(windowOpenDecision(url), url).toEqual({ action: 'deny', openExternally: false });
    }
  });

  it('still opens ordinary public links', () => {
    for (const url of [
      'https://github.com/owner/repo',
      'https://localhost.example.com/',
      'http://[2606:4700::1]/',
    ])
      expect(externalLinkAllowed(url), url).toBe(true);
  });
});
