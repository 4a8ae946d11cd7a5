// Attack, as a person runs it: `agenvoy tools call http_request` with no terminal, and settings.json's
// web.allowedHosts holding a range the address guard cannot read (two ranges joined by a comma). Such a range
// matched every address, so the call reached a service on this machine (tools/builtin/web/allowed-range-attack.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../tools/builtin/web/testing/local-server';
import { startLocalServer } from '../../tools/builtin/web/testing/local-server';
import { runCli } from './testing/cli-harness';

let server: LocalServer;
beforeEach(async () => {
  server = await startLocalServer((_req, res) => res.end('internal admin panel'));
});
afterEach(async () => {
  await server.close();
});

describe('agenvoy tools call http_request with a range it cannot read in settings.json', () => {
  it('is refused as blocked, and nothing reaches this machine', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-range-'));
    try {
      fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
      fs.writeFileSync(
        path.join(home, 'desktop', 'settings.json'),
        JSON.stringify({ web: { allowedHosts: ['192.168.0.0/16,10.0.0.0/8'] } }),
      );
      const run = await runCli(
        ['tools', 'call', 'http_request', JSON.stringify({ url: `${server.url}/` }), '--yes'],
        { home, cwd: home },
      );
      expect(`${run.stdout}${run.stderr}`).toContain('blocked');
      expect(`${run.stdout}${run.stderr}`).not.toContain('internal admin panel');
      expect(server.connections()).toBe(0);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
