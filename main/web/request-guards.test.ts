// The pure request checks of browser mode: Host, Origin, token (constant-time), static paths.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeRendererDir } from './testing/web-fixture';
import { hostAllowed, originAllowed, refusal, tokenOf } from './request-guards';
import { isPage, resolveStatic } from './static-files';
import { newToken, tokenMatches } from './web-token';

describe('request guards', () => {
  it('accepts only this host name and port', () => {
    expect(hostAllowed('127.0.0.1:8080', 8080)).toBe(true);
    expect(hostAllowed('localhost:8080', 8080)).toBe(true);
    expect(hostAllowed('127.0.0.1:8081', 8080)).toBe(false);
    expect(hostAllowed('evil.example:8080', 8080)).toBe(false);
    expect(hostAllowed(undefined, 8080)).toBe(false);
  });

  it('accepts only its own origin; upgrades need one', () => {
    expect(originAllowed('http://127.0.0.1:8080', 8080, true)).toBe(true);
    expect(originAllowed(undefined, 8080, false)).toBe(true);
    expect(originAllowed(undefined, 8080, true)).toBe(false);
    expect(originAllowed('null', 8080, false)).toBe(false);
    expect(originAllowed('https://127.0.0.1:8080', 8080, false)).toBe(false);
  });

  it('tokens are 256-bit, compared whole', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(token);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(`${token}x`, token)).toBe(false);
    expect(tokenMatches(token.slice(1), token)).toBe(false);
    expect(tokenMatches('', token)).toBe(false);
    expect(tokenMatches(null, token)).toBe(false);
    expect(tokenOf('/ws?token=abc&x=1')).toBe('abc');
    expect(tokenOf('/')).toBeNull();
  });

  it('refusal names the first failed check', () => {
    const rules = { port: 1, token: 't', needsToken: true, needsOrigin: true };
    expect(
      refusal({ host: '127.0.0.1:1', origin: 'http://127.0.0.1:1', url: '/?token=t' }, rules),
    ).toBeNull();
    expect(refusal({ host: 'x:1', origin: 'http://127.0.0.1:1', url: '/?token=t' }, rules)).toMatch(/Host/);
    expect(refusal({ host: '127.0.0.1:1', origin: 'http://x', url: '/?token=t' }, rules)).toMatch(
      /cross-origin/,
    );
    expect(refusal({ host: '127.0.0.1:1', origin: 'http://127.0.0.1:1', url: '/?token=u' }, rules)).toMatch(
      /token/,
    );
  });
});

describe('static files', () => {
  it('serves the build files only', () => {
    const root = fakeRendererDir();
    fs.writeFileSync(path.join(root, '.secret.js'), 'x');
    expect(resolveStatic(root, '/')?.file).toBe(path.join(root, 'index.html'));
    expect(resolveStatic(root, '/assets/app.js')?.type).toContain('javascript');
    expect(resolveStatic(root, '/assets')).toBeNull();
    expect(resolveStatic(root, '/../package.json')).toBeNull();
    expect(resolveStatic(root, '/%2e%2e/x.html')).toBeNull();
    expect(resolveStatic(root, '/.secret.js')).toBeNull();
    expect(resolveStatic(root, '/assets\\..\\index.html')).toBeNull();
    expect(resolveStatic(root, '/%E0%A4%A')).toBeNull();
    expect(isPage('/')).toBe(true);
    expect(isPage('/dialog.html')).toBe(true);
    expect(isPage('/assets/app.js')).toBe(false);
  });
});
