// The Welcome page's "Test connection" against a hostile model server: model ids with a bidi override listed for the
// picker (`gpt-4o\u{202e}lanif` shows as another id), and a refusal whose message reverses what follows it. Main drops
// such ids and hands the page the server's words with hidden characters as escapes (docs/security.md, "What the
// person sees").
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture } from './testing/web-fixture';

const RLO = '\u202e';
let fixture: WebFixture;
let client: TestClient;
let server: http.Server;
let origin: string;
const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };

beforeAll(async () => {
  delete process.env.DBUS_SESSION_BUS_ADDRESS;
  delete process.env.DISPLAY;
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/ids/'))
      return res.end(JSON.stringify({ data: [{ id: `gpt-4o${RLO}lanif` }, { id: 'clean' }] }));
    res.writeHead(401).end(JSON.stringify({ error: `bad key${RLO}moc.elpmaxe` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fixture = await webFixture();
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (saved.bus !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = saved.bus;
  if (saved.display !== undefined) process.env.DISPLAY = saved.display;
});

describe('Test connection with a hostile model server', () => {
  it('lists no id with a bidi override', async () => {
    const listed = value(
      await client.bridge.api.invoke('provider.models', {
        provider: 'custom',
        baseUrl: `${origin}/ids/v1`,
        apiKeyName: null,
      }),
    );
    expect(listed.models).toEqual(['clean']);
  });

  it('shows the override in a refusal as an escape', async () => {
    const refused = await client.bridge.api.invoke('provider.models', {
      provider: 'custom',
      baseUrl: `${origin}/refuse/v1`,
      apiKeyName: null,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    if (refused.ok) return;
    expect(refused.error.message).not.toContain(RLO);
    expect(refused.error.message).toContain('bad key\\u{202e}moc.elpmaxe');
  });
});
