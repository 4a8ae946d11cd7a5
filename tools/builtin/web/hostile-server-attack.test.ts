// Attack: a hostile web server answers fetch_page and http_request with responses built to exhaust the app: a gzip
// bomb, a header flood, a redirect loop, a body trickled a byte at a time to keep a progress-reset clock alive, a
// Content-Length that lies. All already refused (undici does not decompress for these tools, caps header size, the
// guarded client counts redirects, the timeout is a total deadline, bodies are read up to a byte cap); pinned here.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchPageTool } from '../fetch-page';
import { httpRequestTool } from '../http-request';
import { testContext } from '../../sdk/testing/tool-context';
import type { LocalServer } from './testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from './testing/local-server';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function site(handler: Parameters<typeof startLocalServer>[0]): Promise<LocalServer> {
  const s = await startLocalServer(handler);
  servers.push(s);
  return s;
}

// A raw TCP server writing `reply` to every connection, for responses node's http would not send.
async function raw(reply: (socket: net.Socket) => void): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => reply(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function context(signal?: AbortSignal) {
  return testContext({ services: { web: LOOPBACK_ALLOWED }, ...(signal ? { signal } : {}) }).ctx;
}

describe('a hostile web server against fetch_page and http_request', () => {
  it('a gzip bomb (200 KB inflating to 200 MB) is never inflated', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(200 * 1024 * 1024), { level: 9 });
    const s = await site((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.setHeader('content-encoding', 'gzip');
      res.end(bomb);
    });
    const rss = process.memoryUsage().rss;
    const page = JSON.stringify(await fetchPageTool.handler({ url: `${s.url}/`, format: 'html' }, context()));
    const request = JSON.stringify(await httpRequestTool.handler({ url: `${s.url}/` }, context()));
    expect(page.length).toBeLessThan(2 * bomb.length + 10_000);
    expect(request.length).toBeLessThan(2 * bomb.length + 10_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(150 * 1024 * 1024);
  }, 60_000);

  it('a header flood (a 1 MB header line, 100k headers) fails cleanly', async () => {
    const line = await raw((socket) =>
      socket.end(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(1024 * 1024)}\r\ncontent-length: 2\r\n\r\nok`),
    );
    const many = await raw((socket) =>
      socket.end(`HTTP/1.1 200 OK\r\n${'x-h: a\r\n'.repeat(100_000)}content-length: 2\r\n\r\nok`),
    );
    await expect(httpRequestTool.handler({ url: `${line}/` }, context())).rejects.toThrow(/header/i);
    await expect(fetchPageTool.handler({ url: `${many}/` }, context())).rejects.toThrow(/header/i);
  }, 60_000);

  it('a redirect loop stops at the redirect limit', async () => {
    const s = await site((req, res) => {
      res.statusCode = 302;
      res.setHeader('location', req.url === '/a' ? '/b' : '/a');
      res.end();
    });
    await expect(fetchPageTool.handler({ url: `${s.url}/a` }, context())).rejects.toMatchObject({
      code: 'too_many_redirects',
    });
  });

  it('a body trickled a byte at a time ends at the timeout, which progress does not reset', async () => {
    const s = await site((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.flushHeaders();
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('x')), 200);
    });
    const started = Date.now();
    await expect(httpRequestTool.handler({ url: `${s.url}/`, timeout: 2 }, context())).rejects.toMatchObject({
      code: 'timed_out',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  }, 30_000);

  it('an endless body or a lying Content-Length is cut at the byte cap or ends with the connection', async () => {
    const endless = await site((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const endlessText = JSON.stringify(await httpRequestTool.handler({ url: `${endless.url}/` }, context()));
    expect(endlessText).toMatch(/output truncated: showing the first 100000 of more than/);
    expect(endlessText.length).toBeLessThan(200_000);
    const short = await raw((socket) =>
      socket.end(
        'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 1000000000\r\n\r\nonly this',
      ),
    );
    await expect(httpRequestTool.handler({ url: `${short}/`, timeout: 5 }, context())).rejects.toThrow();
  }, 60_000);
});
