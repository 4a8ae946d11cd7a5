// Browser mode's gatekeeping over real sockets: the token, the Host and Origin checks, CSP, 127.0.0.1 only.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { WebFixture } from './testing/web-fixture';
import { testClient, webFixture } from './testing/web-fixture';
import { LaunchCode } from './web-token';
import { withoutKeychain } from '../secrets/testing/no-keychain';

let fixture: WebFixture;
withoutKeychain();
beforeAll(async () => {
  fixture = await webFixture();
});
afterAll(async () => {
  await fixture?.close();
});

function get(
  path: string,
  headers: Record<string, string> = {},
  address = '127.0.0.1',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: address, port: fixture.web.port, path, headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    request.on('error', reject);
  });
}

function upgrade(token: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${fixture.web.port}/ws?token=${encodeURIComponent(token)}`, {
      headers,
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', (error) => {
      if (!String(error.message).includes('Unexpected server response')) reject(error);
    });
  });
}

describe('browser mode: page loads', () => {
  it('serves the page with the token, a strict CSP and no-referrer', async () => {
    const page = await get(`/?token=${fixture.web.token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain(`ws://127.0.0.1:${fixture.web.port}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(fixture.web.url).toBe(`http://127.0.0.1:${fixture.web.port}/?token=${fixture.web.token}`);
  });

  it('refuses a page load without the token or with a wrong one (403)', async () => {
    expect((await get('/')).status).toBe(403);
    expect((await get('/index.html')).status).toBe(403);
    expect((await get('/?token=wrong')).status).toBe(403);
    expect((await get(`/?token=${fixture.web.token.slice(0, -1)}`)).status).toBe(403);
    expect((await get('/dialog.html')).status).toBe(403);
    // A server started without a launch link takes no launch code at all.
    expect((await get('/?launch=anything')).status).toBe(403);
    expect((await get(`/?launch=${fixture.web.token}`)).status).toBe(403);
  });

  it('a launch code works once, only within its lifetime, and only the right one', () => {
    let now = 1_000;
    const code = new LaunchCode(60_000, () => now);
    expect(code.take('wrong')).toBe(false);
    expect(code.take(null)).toBe(false);
    expect(code.take(code.code)).toBe(true);
    expect(code.take(code.code)).toBe(false);
    const late = new LaunchCode(60_000, () => now);
    now += 60_001;
    expect(late.take(late.code)).toBe(false);
  });

  it('refuses a foreign Host header (DNS rebinding) even with the token', async () => {
    const rebound = await get(`/?token=${fixture.web.token}`, { Host: `evil.example:${fixture.web.port}` });
    expect(rebound.status).toBe(403);
    const asset = await get('/assets/app.js', { Host: 'evil.example' });
    expect(asset.status).toBe(403);
  });

  it('refuses a cross-origin request', async () => {
    const page = await get(`/?token=${fixture.web.token}`, { Origin: 'https://evil.example' });
    expect(page.status).toBe(403);
  });

  it('serves assets, but nothing outside the build and no other method', async () => {
    expect((await get('/assets/app.js')).status).toBe(200);
    expect((await get('/../package.json')).status).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/package.json')).status).toBe(404);
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('listens on 127.0.0.1 only', async () => {
    expect(fixture.web.address).toBe('127.0.0.1');
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && address.family === 'IPv4' && !address.internal);
    if (!external) return;
    await expect(get(`/?token=${fixture.web.token}`, {}, external.address)).rejects.toThrow(/ECONNREFUSED/);
  });
});

// Sends `target` byte for byte (http.get would refuse or rewrite some), returns the status and the body.
function raw(target: string, extra = ''): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(fixture.web.port, '127.0.0.1', () => {
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${fixture.web.port}\r\n${extra}Connection: close\r\n\r\n`,
      );
    });
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
  });
}

// Spellings of the page's path (and a few of the asset's) that some server somewhere has served as the file.
const PAGE_VARIANTS = [
  '/index.html/',
  '/index.htm%6c',
  '/index.htm%6C/',
  '/index.html%2f',
  '//index.html',
  '///index.html',
  '/assets/../index.html',
  '/assets/%2e%2e/index.html',
  '/assets/%252e%252e/index.html',
  '/./index.html',
  '/%2e/index.html',
  '/index.html.',
  '/index.html..',
  '/index.html%20',
  '/index.html;.js',
  '/index.html;token=x',
  '/index.html%3b.js',
  '/assets\\..\\index.html',
  '/assets%5c..%5cindex.html',
  '/INDEX.HTML',
  '/Index.Html',
  '/index.html::$DATA',
  '/%c0%ae%c0%ae/index.html',
  '/%c0%afindex.html',
  '/%e0%80%afindex.html',
  '/%69ndex.html',
  '/index.html%00',
  '/index.html%00.js',
  '/index.html#/',
  '/dialog.html/',
  '/dialog.htm%6c',
  'http://127.0.0.1/index.html',
  '*',
];

describe('browser mode: every spelling of a page path', () => {
  it('never serves a page without the token, whatever the spelling', async () => {
    for (const target of PAGE_VARIANTS) {
      for (const query of ['', '?token=wrong']) {
        const answer = await raw(target + query);
        expect([403, 404, 400], `${target}${query} → ${answer.status}`).toContain(answer.status);
        expect(answer.body, target).not.toContain('<!doctype html>');
      }
    }
  });

  it('serves a page only at its one canonical spelling, and only with the token', async () => {
    const token = `?token=${fixture.web.token}`;
    expect((await raw(`/${token}`)).status).toBe(200);
    expect((await raw(`/index.html${token}`)).status).toBe(200);
    // On a case-insensitive file system (macOS, Windows) /INDEX.HTML is the same file: still a page, token checked.
    const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-case-'));
    const caseInsensitive = fs.existsSync(probe.toUpperCase()) && fs.existsSync(probe.toLowerCase());
    fs.rmSync(probe, { recursive: true, force: true });
    for (const target of PAGE_VARIANTS) {
      if (caseInsensitive && target.toLowerCase() === '/index.html') continue;
      const answer = await raw(target + token);
      expect([404, 400], `${target} → ${answer.status}`).toContain(answer.status);
    }
  });

  it('survives request targets that no URL parser accepts, and keeps serving', async () => {
    for (const target of ['//[', 'http://[', '/%', '/%ff%fe', '//[/?token=x', `/ws?token=${'%'.repeat(3)}`]) {
      const answer = await raw(target);
      expect(answer.status, target).toBeGreaterThanOrEqual(400);
    }
    const upgrade = await raw(
      '//[',
      'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\nSec-WebSocket-Version: 13\r\n',
    );
    expect(upgrade.status).toBe(404);
    expect((await get(`/?token=${fixture.web.token}`)).status).toBe(200);
  });
});

describe('browser mode: the WebSocket upgrade', () => {
  const origin = () => `http://127.0.0.1:${fixture.web.port}`;

  it('accepts its own page with the token', async () => {
    expect(await upgrade(fixture.web.token, { Origin: origin() })).toBe(101);
  });

  it('refuses a wrong or missing token (403)', async () => {
    expect(await upgrade('wrong', { Origin: origin() })).toBe(403);
    expect(await upgrade('', { Origin: origin() })).toBe(403);
  });

  it('refuses another origin, or none', async () => {
    expect(await upgrade(fixture.web.token, { Origin: 'https://evil.example' })).toBe(403);
    expect(await upgrade(fixture.web.token, { Origin: `http://127.0.0.1:${fixture.web.port + 1}` })).toBe(
      403,
    );
    expect(await upgrade(fixture.web.token, {})).toBe(403);
  });

  it('a bridge answers app.info and refuses unknown channels as data', async () => {
    const client = await testClient(fixture.web);
    const info = await client.bridge.api.invoke('app.info', {});
    expect(info).toMatchObject({ ok: true, value: { mode: 'web', home: fixture.home } });
    const unknown = await client.bridge.api.invoke('nope' as 'app.info', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const bad = await client.bridge.api.invoke('chats.open', { chatId: 42 } as never);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const missing = await client.bridge.api.invoke('chats.open', { chatId: 'nope' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    client.close();
  });
});
