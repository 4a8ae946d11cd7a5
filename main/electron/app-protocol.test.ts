// The app:// scheme and the Electron pages' CSP, in plain Node.
import { describe, expect, it } from 'vitest';
import { appRequestPath, appResponseHeaders, electronContentPolicy, MAIN_PAGE_URL } from './app-protocol';

describe('app protocol and CSP', () => {
  it('the CSP allows only the app own files: no inline code, no eval, no connections, no frames', () => {
    const csp = electronContentPolicy();
    const directives = Object.fromEntries(
      csp.split(';').map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives['default-src']).toBe("'none'");
    expect(directives['script-src']).toBe("'self'");
    expect(directives['style-src']).toBe("'self'");
    expect(directives['connect-src']).toBe("'none'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(directives['base-uri']).toBe("'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('every response carries the CSP and nosniff', () => {
    expect(appResponseHeaders('text/html')).toMatchObject({
      'Content-Security-Policy': electronContentPolicy(),
      'X-Content-Type-Options': 'nosniff',
    });
  });

  it('answers only its own host', () => {
    expect(appRequestPath(MAIN_PAGE_URL)).toBe('/index.html');
    expect(appRequestPath('app://renderer/assets/a.js')).toBe('/assets/a.js');
    expect(appRequestPath('app://other/index.html')).toBeNull();
    expect(appRequestPath('https://renderer/index.html')).toBeNull();
    expect(appRequestPath('::')).toBeNull();
  });
});
