// A tunnelling proxy on 127.0.0.1 for a rendered page's connections that do not go through the guarded fetch
// (WebSocket, WebRTC over TCP, preconnects): each CONNECT is checked by the same address guard as HTTP and
// connected to the very address the guard checked, so a DNS answer that changes after the check (rebinding)
// cannot slip through (docs/security.md, "Rendered pages").
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';
import type { AddressGuard } from '../../sdk/web/address-guard';

/** A running guarded proxy. */
export interface GuardedProxy {
  /** The proxy as Chromium's proxy rules name it, e.g. "http://127.0.0.1:41234". */
  url: string;
  /** Tunnels refused so far, with the guard's reason. */
  blocked: Array<{ target: string; reason: string }>;
  /** Stops listening and ends every tunnel. */
  close(): Promise<void>;
}

/** Starts a CONNECT-only proxy that lets through what `guard` allows. */
export async function startGuardedProxy(guard: AddressGuard): Promise<GuardedProxy> {
  const sockets = new Set<Socket>();
  const blocked: GuardedProxy['blocked'] = [];
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  // Plain proxied HTTP never reaches here (the page's http and https are answered by the guarded fetch).
  const server = http.createServer((_req, res) => {
    res.writeHead(405, { 'content-type': 'text/plain' }).end('only CONNECT tunnels are served here\n');
  });
  server.on('connection', track);
  server.on('connect', (req: http.IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    const parsed = parseTarget(target);
    const refuse = (reason: string) => {
      blocked.push({ target, reason });
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${reason}\n`,
      );
    };
    if (!parsed) return refuse(`not a host:port target: ${target}`);
    guard.resolve(parsed.host).then(
      (addresses) => {
        const address = addresses[0];
        if (!address || client.destroyed) return client.destroy();
        // The connection goes to the checked address itself, never to a name resolved again.
        const upstream = net.connect({ host: address.address, port: parsed.port, family: address.family });
        track(upstream);
        upstream.once('connect', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length > 0) upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.once('error', () => {
          if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n');
        });
        client.once('error', () => upstream.destroy());
        client.once('close', () => upstream.destroy());
      },
      (error: unknown) => refuse(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    blocked,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Why a WebSocket URL may not be opened under `guard`, or null when it may (resolved and checked like HTTP). */
export async function socketBlockReason(guard: AddressGuard, url: string): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `not a URL: ${url}`;
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') return `not a WebSocket URL: ${url}`;
  try {
    const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
    // Chromium sends localhost and *.localhost to loopback without asking DNS: judge them as loopback.
    if (host === 'localhost' || host.endsWith('.localhost')) guard.checkAddress(host, '127.0.0.1');
    else await guard.resolve(parsed.hostname);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function parseTarget(target: string): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+(?:%[\w.-]+)?\]|[^:[\]/\s]+):(\d{1,5})$/.exec(target);
  if (!match?.[1] || !match[2]) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}
