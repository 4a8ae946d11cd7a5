// Attack: a page rendered by download_file render=true loads many large resources at once, each just under the
// 50 MiB limit of one resource. Every one was read whole into this process before Chromium got it, with no limit on
// their sum (Chromium asks for a hundred at a time), so one page could hold gigabytes here and bring the app down.
// The page's resources together are now limited; what is past the limit fails as a network error does.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from '../download-file';
import { testContext } from '../../sdk/testing/tool-context';
import { DEFAULT_CHROMIUM_PATH } from '../../sdk/web/web-settings';
import { MAX_PAGE_BYTES, MAX_RESOURCE_BYTES } from './page-render';

const CHROMIUM = process.env.AGENVOY_TEST_CHROMIUM || DEFAULT_CHROMIUM_PATH;
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

const SIZE = MAX_RESOURCE_BYTES - 1024 * 1024;
const COUNT = 8;

let workspace: string;
let server: http.Server;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'render-memory-'));
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(workspace, { recursive: true, force: true });
});

describe.skipIf(!HAVE_CHROMIUM)('a rendered page loading many large resources', () => {
  it('gets no more than the page limit in sum, and the page is still saved', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    const sent = { whole: 0, cut: 0 };
    server = http.createServer((req, res) => {
      const { port } = server.address() as AddressInfo;
      if (req.url === '/') {
        // Each from a host of its own, so Chromium asks for all of them at once.
        const images = Array.from(
          { length: COUNT },
          (_, i) => `<img src="http://h${i}.evil.test:${port}/big${i}.png">`,
        ).join('');
        res.setHeader('content-type', 'text/html');
        res.end(`<!doctype html><html><body><p>hostile page</p>${images}</body></html>`);
        return;
      }
      // Sent as the reader takes it: a resource cut off by the reader is seen here as never sent whole.
      res.setHeader('content-type', 'image/png');
      res.on('close', () => (res.writableFinished ? sent.whole++ : sent.cut++));
      // All but the last byte, then a pause: a reader that stopped has closed the connection by then.
      let left = SIZE - 1;
      const more = () => {
        while (left > 0 && !res.destroyed) {
          const part = chunk.subarray(0, Math.min(chunk.length, left));
          left -= part.length;
          if (!res.write(part)) return void res.once('drain', more);
        }
        if (!res.destroyed) setTimeout(() => res.destroyed || res.end('A'), 2000);
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const web = {
      allowedHosts: ['evil.test', '*.evil.test'],
      chromiumPath: CHROMIUM,
      resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
    };
    const { ctx } = testContext({ workspace, services: { web } });
    await downloadFileTool.handler(
      { url: `http://evil.test:${port}/`, path: 'page.html', render: true },
      ctx,
    );
    expect(fs.readFileSync(path.join(workspace, 'page.html'), 'utf8')).toContain('hostile page');
    // Some resources were read whole, no more in sum than the page limit; the rest were cut off.
    expect(sent.whole).toBeGreaterThan(0);
    expect(sent.whole * SIZE).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    expect(sent.cut).toBeGreaterThan(0);
  }, 120_000);
});
