// Attacks from a rendered page's sockets (download_file render=true in the app): WebSocket and WebRTC-over-TCP
// connections go through the guarded proxy, and ws: URLs are checked first; neither reaches this machine, the
// private network or cloud metadata, however the address is spelled or re-resolved (docs/security.md).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { downloadFileTool } from '../download-file';
import { testContext } from '../../sdk/testing/tool-context';
import { AddressGuard } from '../../sdk/web/address-guard';
import type { PageRendererPort } from '../../sdk/web/page-renderer-port';
import type { GuardedProxy } from './guarded-proxy';
import { socketBlockReason, startGuardedProxy } from './guarded-proxy';

type Resolve = (host: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function guard(options: { allowedHosts?: string[]; allowPrivateNetwork?: boolean; resolve?: Resolve } = {}) {
  return new AddressGuard({
    allowedHosts: options.allowedHosts ?? [],
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
}

async function proxyFor(g: AddressGuard): Promise<GuardedProxy> {
  const proxy = await startGuardedProxy(g);
  cleanup.push(() => proxy.close());
  return proxy;
}

/** A local TCP server standing in for an internal service; counts who got through to it. */
async function internalService(): Promise<{ port: number; connections: () => number }> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('data', (data) => socket.write(`echo:${data.toString()}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { port: (server.address() as AddressInfo).port, connections: () => count };
}

/** Sends CONNECT through the proxy as Chromium does for a WebSocket; the status line and, when open, the socket. */
function connect(
  proxy: GuardedProxy,
  target: string,
): Promise<{ status: number; body: string; socket: Socket }> {
  const url = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method: 'CONNECT', path: target });
    request.once('connect', (response, socket, head) => {
      // A refusal's text arrives after the status line, on the socket itself.
      let body = head.toString();
      socket.on('data', (chunk: Buffer) => (body += chunk.toString()));
      if (response.statusCode === 200) resolve({ status: 200, body, socket });
      else socket.once('close', () => resolve({ status: response.statusCode ?? 0, body, socket }));
    });
    request.once('error', reject);
    request.end();
  });
}

describe('tunnels to internal addresses', () => {
  it('are refused in every spelling, with the reason, and nothing reaches the service', async () => {
    const service = await internalService();
    const proxy = await proxyFor(guard());
    const targets = [
      `127.0.0.1:${service.port}`,
      `127.1.2.3:${service.port}`,
      `localhost:${service.port}`,
      `[::1]:${service.port}`,
      `[::ffff:127.0.0.1]:${service.port}`,
      `[::ffff:7f00:1]:${service.port}`,
      `0.0.0.0:${service.port}`,
      '10.0.0.1:80',
      '192.168.1.1:443',
      '172.16.0.1:22',
      '169.254.169.254:80',
      '[fd00:ec2::254]:80',
      '[fe80::1]:80',
      '100.64.0.1:80',
    ];
    for (const target of targets) {
      const result = await connect(proxy, target);
      expect(result.status, target).toBe(403);
      expect(result.body, target).toMatch(/blocked: .* address|cannot resolve/);
    }
    expect(service.connections()).toBe(0);
    expect(proxy.blocked).toHaveLength(targets.length);
  });

  it('malformed targets and plain proxied requests are refused', async () => {
    const proxy = await proxyFor(guard());
    for (const target of ['no-port', '127.0.0.1:0', '127.0.0.1:70000', 'a b:80', 'http://127.0.0.1:80/']) {
      const result = await connect(proxy, target).catch(() => ({ status: 400, body: '' }));
      expect([400, 403], target).toContain(result.status);
    }
    const url = new URL(proxy.url);
    const status = await new Promise<number>((resolve) => {
      http
        .get({ host: url.hostname, port: url.port, path: 'http://127.0.0.1:1/' }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', () => resolve(0));
    });
    expect(status).toBe(405);
  });

  it('a name re-resolved to an internal address after the check is refused by the proxy (DNS rebinding)', async () => {
    const service = await internalService();
    let calls = 0;
    // The first answer (the ws: check) is public; every later one (the tunnel) points at this machine.
    const g = guard({
      resolve: async () => [{ address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }],
    });
    expect(await socketBlockReason(g, `ws://rebind.example:${service.port}/`)).toBeNull();
    const proxy = await proxyFor(g);
    const result = await connect(proxy, `rebind.example:${service.port}`);
    expect(result.status).toBe(403);
    expect(result.body).toMatch(/rebind\.example \(127\.0\.0\.1\) is a loopback address/);
    expect(service.connections()).toBe(0);
  });

  it('a name with one internal address among public ones is refused outright', async () => {
    const g = guard({
      resolve: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ],
    });
    const result = await connect(await proxyFor(g), 'mixed.example:443');
    expect(result.status).toBe(403);
    expect(result.body).toMatch(/10\.1\.2\.3\) is a private address/);
  });
});

describe('allowed tunnels', () => {
  it('reach the address the guard checked, and carry bytes both ways', async () => {
    const service = await internalService();
    // allowedHosts lets the local service count as allowed here; a real page would reach a public host.
    const g = guard({
      allowedHosts: ['allowed.example'],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const result = await connect(await proxyFor(g), `allowed.example:${service.port}`);
    expect(result.status).toBe(200);
    const echoed = await new Promise<string>((resolve) => {
      result.socket.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      result.socket.write('hello');
    });
    expect(echoed).toBe('echo:hello');
    result.socket.destroy();
    expect(service.connections()).toBe(1);
  });
});

describe('ws: and wss: URLs checked before they start', () => {
  it('internal ones are refused with the reason; public ones and settings-allowed ones pass', async () => {
    const publicOnly = guard({
      resolve: async (host) => [
        { address: ['localhost', 'localtest.me'].includes(host) ? '127.0.0.1' : '93.184.216.34', family: 4 },
      ],
    });
    for (const url of [
      'ws://127.0.0.1:9222/devtools/browser',
      'ws://localhost:3000/',
      'wss://[::1]/',
      'ws://0x7f000001/',
      'ws://2130706433/',
      'ws://0177.0.0.1/',
      'ws://127.1/',
      'wss://169.254.169.254/latest',
      'ws://[::ffff:10.0.0.1]/',
      'ws://localtest.me:8080/',
    ]) {
      expect(await socketBlockReason(publicOnly, url), url).toMatch(/blocked: /);
    }
    expect(await socketBlockReason(publicOnly, 'http://example.com/')).toMatch(/not a WebSocket URL/);
    expect(await socketBlockReason(publicOnly, 'not a url')).toMatch(/not a URL/);
    expect(await socketBlockReason(publicOnly, 'wss://stream.example.com/live')).toBeNull();
    const lan = guard({
      allowPrivateNetwork: true,
      resolve: async () => [{ address: '192.168.1.5', family: 4 }],
    });
    expect(await socketBlockReason(lan, 'ws://nas.lan/')).toBeNull();
    expect(await socketBlockReason(lan, 'ws://169.254.169.254/')).toMatch(/metadata/);
  });
});

describe('through download_file render=true', () => {
  it("the app's renderer gets the guarded proxy and socket check, and a page's socket to this machine is refused", async () => {
    const service = await internalService();
    const page = http.createServer((_req, res) =>
      res.end('<script>new WebSocket("ws://127.0.0.1")</script>'),
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => page.close(() => resolve())));
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    const seen: string[] = [];
    // Does what Chromium does with the port's settings: the page itself by fetch, its sockets by the proxy.
    const renderer: PageRendererPort = {
      async render(request) {
        seen.push(`proxy ${/^http:\/\/127\.0\.0\.1:\d+$/.test(request.proxy)}`);
        seen.push(`check ${(await request.checkSocket(`ws://127.0.0.1:${service.port}/`)) ?? 'allowed'}`);
        const tunnel = await connect({ url: request.proxy } as GuardedProxy, `127.0.0.1:${service.port}`);
        seen.push(`tunnel ${tunnel.status}`);
        const fetched = await request.fetch({ method: 'GET', url: request.url, headers: {} });
        return fetched.body;
      },
    };
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-render-socket-'));
    cleanup.push(async () => fs.rmSync(workspace, { recursive: true, force: true }));
    // The page's own host is allowed by name (as a user might allow a LAN page); its sockets to loopback are not.
    const { ctx } = testContext({
      workspace,
      services: { pageRenderer: renderer, web: { allowedHosts: [`127.0.0.1/32`] } },
    });
    await downloadFileTool.handler({ url: pageUrl, render: true, path: 'page.html' }, ctx);
    expect(seen[0]).toBe('proxy true');
    expect(seen[1]).toBe('check allowed');
    expect(seen[2]).toBe('tunnel 200');
    // With loopback not allowed, the same page's sockets are refused, before and at the tunnel.
    seen.length = 0;
    const strict = testContext({
      workspace,
      services: { pageRenderer: renderer, web: { allowedHosts: ['localhost'] } },
    });
    await expect(
      downloadFileTool.handler(
        { url: pageUrl.replace('127.0.0.1', 'localhost'), render: true, path: 'p2.html' },
        strict.ctx,
      ),
    ).resolves.toBeDefined();
    expect(seen[1]).toMatch(/^check blocked: 127\.0\.0\.1 is a loopback address/);
    expect(seen[2]).toBe('tunnel 403');
    expect(service.connections()).toBe(1);
  });
});
