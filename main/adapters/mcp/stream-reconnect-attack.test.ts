// An MCP server over HTTP that closes its notification stream at once (docs/security.md, "A hostile MCP server"):
// after `initialize` the client opens a GET event stream for the server's own messages, and opens it again whenever
// the server ends it, after the delay the server asked for with `retry:`; a stream that ended without an error
// starts the SDK's attempt count again. A server answering every GET with `retry: 0` and closing kept the client
// in a loop of requests without pause, for as long as the app ran: thousands a second on the main thread. The
// stream is now opened at most once a second, waiting twice as long each time the server closes it at once (to 30
// s). A hand-written server on 127.0.0.1: it answers the POSTs like a plain server, and counts the GETs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpHarness, waitFor } from './mcp-testing';

const servers: http.Server[] = [];
let harness: ReturnType<typeof mcpHarness> | null = null;

afterEach(async () => {
  await harness?.dispose();
  harness = null;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

// Answers initialize and tools/list, accepts notifications; every GET gets `retry: 0` and an end.
async function closingServer(): Promise<{ url: string; gets: () => number }> {
  let gets = 0;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      gets++;
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('retry: 0\n\n');
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as {
        id?: number;
        method: string;
        params?: { protocolVersion?: string };
      };
      if (message.id === undefined) return void res.writeHead(202).end();
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: message.params?.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'closing', version: '1.0.0' },
            }
          : { tools: [{ name: 'noop', inputSchema: { type: 'object' } }] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, gets: () => gets };
}

describe('an HTTP server that ends every notification stream at once, asking for no delay', () => {
  it('is not asked again in a loop: a few GETs in three seconds, and the server stays ready', async () => {
    const server = await closingServer();
    harness = mcpHarness({ servers: { remote: { url: server.url } } });
    await harness.manager.start();
    expect(harness.state('remote')).toMatchObject({ status: 'ready' });
    await waitFor(() => server.gets() > 0);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    // 1 s, then 2 s: at most three GETs in three seconds (the loop made thousands).
    expect(server.gets()).toBeLessThanOrEqual(3);
    expect(harness.state('remote')).toMatchObject({ status: 'ready' });
    expect((await harness.dispatch('mcp__remote__noop', {})).outcome).toBe('ok');
  }, 20_000);
});
