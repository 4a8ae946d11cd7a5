// A page rendered for download_file render=true (a hostile page the model asked for) navigates its offscreen window
// away: `location.href = 'https://evil.example/…'`, a meta refresh, or its server's redirect of the very first load.
// The app's guards on every window refused the navigation and handed its target to the person's own browser, as they
// do for a link the person clicks in a reply: the page opened whatever it liked in the person's browser, with their
// cookies, and without a click. Only the app's own pages hand links over (docs/security.md, "Rendered pages").
import { describe, expect, it } from 'vitest';
import { MAIN_PAGE_URL } from './app-protocol';
import { navigationDecision } from './navigation-rules';

describe('navigations of a rendered page', () => {
  it('are refused and never handed to the browser', () => {
    const cases: Array<[string, string]> = [
      ['https://evil.example/render-me', 'https://evil.example/phish?d=1'],
      ['https://evil.example/render-me', 'https://accounts.example.com/oauth/authorize?client_id=evil'],
      // The first load's redirect: nothing is committed yet.
      ['', 'https://evil.example/landing'],
      ['about:blank', 'https://evil.example/landing'],
      ['http://93.184.215.14/', 'http://93.184.215.14/next'],
      // A page served as the app's scheme by someone else's host is not the app's page.
      ['https://renderer/index.html', 'https://evil.example/'],
    ];
    for (const [from, to] of cases)
      expect(navigationDecision(from, to), `${from} -> ${to}`).toEqual({
        prevent: true,
        openExternally: false,
      });
  });

  it("a link in the app's own page still opens in the browser; links to this machine still do not", () => {
    expect(navigationDecision(MAIN_PAGE_URL, 'https://github.com/owner/repo')).toEqual({
      prevent: true,
      openExternally: true,
    });
    expect(navigationDecision(`${MAIN_PAGE_URL}?x=1`, 'http://localhost:8080/')).toEqual({
      prevent: true,
      openExternally: false,
    });
  });
});
