// The MCP HTTP client's fetch against a real server on 127.0.0.1: the transport's long-lived signal does not collect
// one abort listener per call, and aborting it still stops a response in the middle of its body.
import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpFetch, httpTimeoutsFor } from './http-fetch';

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/slow') {
      // A body that starts and never ends.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"jsonrpc":"2.0"}\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the MCP HTTP fetch', () => {
  it('leaves no abort listener on the transport’s signal once each response has ended', async () => {
    const client = createMcpFetch(httpTimeoutsFor(10_000));
    const transport = new AbortController();
    try {
      for (let i = 0; i < 50; i++) {
        const response = await client.fetch(`${url}/call`, {
          method: 'POST',
          body: '{}',
          signal: transport.signal,
        });
        expect(await response.text()).toContain('"result"');
      }
      // undici kept one listener per request on this signal until the request was collected (50 here).
      expect(getEventListeners(transport.signal, 'abort')).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it('still stops a response in the middle of its body when the transport’s signal aborts', async () => {
    const client = createMcpFetch(httpTimeoutsFor(10_000));
    const transport = new AbortController();
    try {
      const response = await client.fetch(`${url}/slow`, {
        method: 'POST',
        body: '{}',
        signal: transport.signal,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('jsonrpc');
      expect(getEventListeners(transport.signal, 'abort')).toHaveLength(1);
      transport.abort(new Error('the transport closed'));
      await expect(reader.read()).rejects.toThrow();
    } finally {
      await client.close();
    }
  });
});
