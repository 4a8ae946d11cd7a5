// Browser mode's server: the built renderer and the contract over a WebSocket, on 127.0.0.1 only, behind a random
// token (page loads and the upgrade), with Host and Origin checks and a strict CSP on every page.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { hostProof, nonceShaped, pageKey } from '../../preload/web-handshake';
import type { HostClosingCode, MaxFrameBytes, ServerMessage } from '../../preload/web-protocol';
import { contentSecurityPolicy } from '../host/content-policy';
import type { AppHost } from '../host/open-app-host';
import { refusal, tokenRefusal } from './request-guards';
import type { RequestTarget } from './request-target';
import { readTarget } from './request-target';
import { isPageFile, resolveStatic } from '../host/static-files';
import { bindSocket } from './web-session';
import { LaunchCode, newToken, tokenMatches } from './web-token';

/** What the server is started with. */
export interface WebServerOptions {
  host: AppHost;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** A fixed token (tests); a fresh random one otherwise. */
  token?: string;
  /** Make a one-time launch link (for a browser opener, whose command line others can read). */
  launchLink?: boolean;
}

/** A running browser-mode server. */
export interface WebServer {
  /** The URL to open, token included. */
  url: string;
  /** With `launchLink`: a URL without the token that works once, within two minutes, and leads to `url`. */
  launchUrl: string | null;
  port: number;
  /** The address it listens on: always 127.0.0.1. */
  address: string;
  token: string;
  /** Connected pages. */
  clients(): number;
  /** Closes every socket and the server (the host itself is closed by its owner). */
  close(): Promise<void>;
}

/** The only interface browser mode listens on. */
export const LISTEN_HOST = '127.0.0.1';
/** Sockets are pinged this often, so a vanished page is noticed. */
const PING_MS = 30_000;
/** The largest frame a page may send: a message at the attachment limits fits (docs/attachments.md). */
export const MAX_FRAME: MaxFrameBytes = 33_554_432;
const HOST_CLOSING: HostClosingCode = 4000;

/** Starts the server; resolves once it listens. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? newToken();
  const launch = options.launchLink ? new LaunchCode() : null;
  let port = 0;
  // ws (and the TLS, HTTPS and zlib modules it brings) loads once the server listens, not before its URL is printed:
  // an upgrade that comes first waits for it (docs/hosts.md, "Fast start").
  let sockets: WebSocketServer | null = null;
  let loading: Promise<WebSocketServer> | null = null;
  const socketServer = (): Promise<WebSocketServer> =>
    (loading ??= import('ws').then(({ WebSocketServer: Server }) => {
      sockets = new Server({ noServer: true, maxPayload: MAX_FRAME, perMessageDeflate: false });
      sockets.on('connection', (ws) => {
        const unbind = bindSocket(ws, options.host);
        let alive = true;
        ws.on('pong', () => (alive = true));
        const ping = setInterval(() => {
          if (!alive) return ws.terminate();
          alive = false;
          ws.ping();
        }, PING_MS);
        ws.on('close', () => {
          clearInterval(ping);
          unbind();
        });
        ws.on('error', () => ws.terminate());
      });
      return sockets;
    }));
  const server = http.createServer((request, response) =>
    serveHttp(request, response, { ...options, port, token, launch }),
  );
  // A page opens its socket with a key derived from the token and a nonce, never the token itself; the host's first
  // message proves it holds the token (preload/web-handshake.ts). Other clients may still send the token.
  const key = await pageKey(token);
  server.on('upgrade', (request, socket, head) => {
    // The target is read strictly before anything else, and nothing here may throw: a throw would end the app.
    const target = readTarget(request.url);
    const why =
      target?.path === '/ws'
        ? (refusal(
            { host: request.headers.host, origin: request.headers.origin },
            { port, needsOrigin: true },
          ) ?? socketRefusal(target, token, key))
        : 'not found';
    if (why || !target) return reject(socket, why === 'not found' ? 404 : 403);
    const nonce = target.key !== null ? target.nonce : null;
    // Only a request that passed every check waits for ws; a socket error meanwhile must not end the app.
    const dropped = () => socket.destroy();
    socket.on('error', dropped);
    socketServer().then(
      (wss) => {
        socket.off('error', dropped);
        if (socket.destroyed) return;
        wss.handleUpgrade(request, socket, head, (ws) => {
          if (nonce === null) return void wss.emit('connection', ws, request);
          // The proof goes first: the page hears nothing else, and sends nothing, until it has checked it.
          void hostProof(token, nonce).then(
            (proof) => {
              if (ws.readyState !== ws.OPEN) return;
              ws.send(JSON.stringify({ type: 'hello', proof } satisfies ServerMessage));
              wss.emit('connection', ws, request);
            },
            () => ws.terminate(),
          );
        });
      },
      () => {
        socket.off('error', dropped);
        reject(socket, 503);
      },
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LISTEN_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  port = bound.port;
  // Loaded once this returns and the URL is printed, so the page's first socket seldom waits for it.
  setImmediate(() => void socketServer().catch(() => undefined));
  return {
    address: bound.address,
    url: `http://${LISTEN_HOST}:${port}/?token=${token}`,
    launchUrl: launch ? `http://${LISTEN_HOST}:${port}/?launch=${launch.code}` : null,
    port,
    token,
    clients: () => sockets?.clients.size ?? 0,
    async close() {
      const wss = loading ? await loading.catch(() => null) : null;
      if (!wss) return closeHttp(server);
      for (const ws of wss.clients) ws.close(HOST_CLOSING, 'the host is shutting down');
      // Pages answer the close frame at once; one that does not is cut off.
      const until = Date.now() + 500;
      while (wss.clients.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await closeHttp(server);
    },
  };
}

async function closeHttp(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function serveHttp(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  options: WebServerOptions & { port: number; token: string; launch: LaunchCode | null },
): void {
  setSecurityHeaders(response, options.port);
  if (request.method !== 'GET' && request.method !== 'HEAD') return end(response, 405, 'method not allowed');
  // Host and Origin first: nothing is answered for another name or another site's page.
  const foreign = refusal(
    { host: request.headers.host, origin: request.headers.origin },
    { port: options.port, needsOrigin: false },
  );
  if (foreign) return end(response, 403, `forbidden: ${foreign}`);
  // One strict reading of the path; any other spelling of it is not found.
  const target = readTarget(request.url);
  // A launch link: the root page with a one-time code and no token is sent on to the tokened URL, once.
  if (target?.path === '/' && target.token === null && target.launch !== null) {
    if (!options.launch?.take(target.launch))
      return end(
        response,
        403,
        'forbidden: this launch link was used or has expired; open the URL the terminal printed',
      );
    response.statusCode = 303;
    response.setHeader('Location', `/?token=${options.token}`);
    response.setHeader('Cache-Control', 'no-store');
    return void response.end();
  }
  const found = target ? resolveStatic(options.rendererDir, target.rawPath) : null;
  if (!found) return end(response, 404, 'not found');
  // What is served decides whether the token is needed, not how its path was spelled: every HTML file is a page.
  const page = isPageFile(found);
  const why = page ? tokenRefusal(target?.token ?? null, options.token) : null;
  if (why) return end(response, 403, `forbidden: ${why}`);
  response.statusCode = 200;
  response.setHeader('Content-Type', found.type);
  response.setHeader('Cache-Control', page ? 'no-store' : 'no-cache');
  if (request.method === 'HEAD') return void response.end();
  fs.createReadStream(found.file)
    .on('error', () => response.destroy())
    .pipe(response);
}

/** Why a WebSocket upgrade's credentials are refused: the token, or a page's key with a well-formed nonce. */
function socketRefusal(target: RequestTarget, token: string, key: string): string | null {
  if (target.key === null) return tokenRefusal(target.token, token);
  if (!nonceShaped(target.nonce)) return 'missing or malformed nonce';
  return tokenMatches(target.key, key) ? null : 'missing or wrong token';
}

function setSecurityHeaders(response: http.ServerResponse, port: number): void {
  response.setHeader(
    'Content-Security-Policy',
    contentSecurityPolicy({ connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] }),
  );
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('X-Frame-Options', 'DENY');
  // The token is in the page URL: it must not leak to any link the page opens.
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  response.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), usb=(), serial=()');
}

function end(response: http.ServerResponse, status: number, text: string): void {
  response.statusCode = status;
  response.setHeader('Content-Type', 'text/plain; charset=utf-8');
  response.setHeader('Cache-Control', 'no-store');
  response.end(`${text}\n`);
}

function reject(socket: Duplex, status: 403 | 404 | 503): void {
  const text = { 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' }[status];
  socket.on('error', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
