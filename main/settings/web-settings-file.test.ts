import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyGate } from '../core/gate-port';
import { createCore } from '../app';

describe('web settings from settings.json', () => {
  it('reach the web tools through the core and apply at once when the file changes', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-web-settings-'));
    const server = http.createServer((_req, res) => res.end('{"hello":"local"}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const core = await createCore({ home, workspace: home, gate: policyGate('allow'), mcp: 'off' });
    const fetchPage = () =>
      core.dispatcher.dispatch(
        { id: String(Math.random()), name: 'fetch_page', args: { url, format: 'json' } },
        { chatId: 'c', workspace: home },
      );
    try {
      const blocked = await fetchPage();
      expect(blocked.outcome).toBe('error');
      fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
      fs.writeFileSync(
        path.join(home, 'desktop', 'settings.json'),
        JSON.stringify({ web: { allowPrivateNetwork: true } }),
      );
      expect(await fetchPage()).toMatchObject({ outcome: 'ok' });
    } finally {
      await core.close();
      server.close();
    }
  });
});
