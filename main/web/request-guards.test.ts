// The pure request checks of browser mode: Host, Origin, token (constant-time), static paths.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeRendererDir } from './testing/web-fixture';
import { hostAllowed, originAllowed, refusal, tokenRefusal } from './request-guards';
import { readTarget } from './request-target';
import { isPageFile, resolveStatic } from '../host/static-files';
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
    expect(readTarget('/ws?token=abc&x=1')?.token).toBe('abc');
    expect(readTarget('/')?.token).toBeNull();
    expect(tokenRefusal('abc', 'abc')).toBeNull();
    expect(tokenRefusal(null, 'abc')).toMatch(/token/);
  });

  it('refusal names the first failed check', () => {
    const rules = { port: 1, needsOrigin: true };
    expect(refusal({ host: '127.0.0.1:1', origin: 'http://127.0.0.1:1' }, rules)).toBeNull();
    expect(refusal({ host: 'x:1', origin: 'http://127.0.0.1:1' }, rules)).toMatch(/Host/);
    expect(refusal({ host: '127.0.0.1:1', origin: 'http://x' }, rules)).toMatch(/cross-origin/);
  });
});

describe('request targets', () => {
  it('reads canonical origin-form paths and their token', () => {
    expect(readTarget('/')).toEqual({
      path: '/',
      rawPath: '/',
      token: null,
      launch: null,
      key: null,
      nonce: null,
    });
    expect(readTarget('/assets/app.js?v=1&token=t')).toEqual({
      path: '/assets/app.js',
      rawPath: '/assets/app.js',
      token: 't',
      launch: null,
      key: null,
      nonce: null,
    });
    expect(readTarget('/ws?key=k&nonce=n')).toMatchObject({ path: '/ws', token: null, key: 'k', nonce: 'n' });
    expect(readTarget('/?launch=c')).toMatchObject({ path: '/', token: null, launch: 'c' });
    expect(readTarget('/caf%C3%A9.html')?.path).toBe('/café.html');
  });

  it('refuses every other spelling of a path', () => {
    const refused = [
      '/index.html/',
      '/index.htm%6c/',
      '//index.html',
      '/assets//app.js',
      '/./index.html',
      '/assets/../index.html',
      '/assets/%2e%2e/index.html',
      '/%2E/index.html',
      '/assets%2fapp.js',
      '/assets%5Capp.js',
      '/assets\\app.js',
      '/index.html;x=1',
      '/index.html%3b',
      '/index.html.',
      '/index.html%20',
      '/index.html::$DATA',
      '/%2525',
      '/%',
      '/%zz',
      '/%00',
      '/%c0%ae%c0%ae/index.html',
      '/%e0%80%af',
      '/.env',
      'index.html',
      '*',
      'http://127.0.0.1/index.html',
      '/index.html#x',
      '/\u00e9.html',
      '/a\tb',
      undefined,
    ];
    for (const target of refused) expect(readTarget(target), String(target)).toBeNull();
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
    const page = resolveStatic(root, '/dialog.html');
    const asset = resolveStatic(root, '/assets/app.js');
    expect(page && isPageFile(page)).toBe(true);
    expect(asset && isPageFile(asset)).toBe(false);
  });
});
