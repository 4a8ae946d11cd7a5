// download_file render=true through the host's PageRendererPort (the desktop app's offscreen window):
// every request the page makes goes through the tool's guarded fetch.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from './download-file';
import { testContext } from '../sdk/testing/tool-context';
import type { PageRendererPort } from '../sdk/web/page-renderer-port';

let server: http.Server | undefined;
afterEach(() => server?.close());

describe('download_file render=true in the app', () => {
  it('renders through the port, fetching allowed resources and failing blocked ones', async () => {
    server = http.createServer((_req, res) => res.end('<html><body>served page</body></html>'));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-render-'));
    const seen: string[] = [];
    const renderer: PageRendererPort = {
      async render(request) {
        const page = await request.fetch({ method: 'GET', url: request.url, headers: {} });
        seen.push(`page ${page.status}`);
        await request.fetch({ method: 'GET', url: 'http://10.0.0.1/tracker.js', headers: {} }).then(
          () => seen.push('private fetched'),
          () => seen.push('private blocked'),
        );
        return new TextEncoder().encode(`${request.format}:${Buffer.from(page.body).toString()}`);
      },
    };
    const { ctx } = testContext({
      workspace,
      services: { pageRenderer: renderer, web: { allowedHosts: ['127.0.0.1'] } },
    });
    const result = await downloadFileTool.handler({ url, render: true, path: 'page.html' }, ctx);
    expect(JSON.stringify(result)).toContain('page.html');
    expect(seen).toEqual(['page 200', 'private blocked']);
    expect(fs.readFileSync(path.join(workspace, 'page.html'), 'utf8')).toBe(
      'html:<html><body>served page</body></html>',
    );
  });
});
