// A real HTTP server on 127.0.0.1 for the web tools' tests: it counts connections and sees them close.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A running local server. */
export interface LocalServer {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Requests seen so far, as "METHOD /path". */
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  /** Resolves when every connection accepted so far has closed. */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 with `handler` (which gets the request body read in full). */
export async function startLocalServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => unknown,
): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const closed: Array<Promise<void>> = [];
  let count = 0;
  const requests: LocalServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      Promise.resolve(handler(req, res, body)).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  server.on('connection', (socket) => {
    count++;
    sockets.add(socket);
    closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => count,
    requests,
    allClosed: async () => {
      await Promise.all(closed);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Settings that let tests reach their own loopback server and nothing else private. */
export const LOOPBACK_ALLOWED = { allowedHosts: ['127.0.0.1'] };
