import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from './download-file';
import { testContext } from '../sdk/testing/tool-context';
import { watchConnections } from './web/testing/connection-watch';
import type { LocalServer } from './web/testing/local-server';
import { startLocalServer } from './web/testing/local-server';
import { DEFAULT_CHROMIUM_PATH } from '../sdk/web/web-settings';

// CI installs Debian's chromium; AGENVOY_TEST_CHROMIUM points elsewhere. Without one, the clear error is checked.
const CHROMIUM = process.env.AGENVOY_TEST_CHROMIUM || DEFAULT_CHROMIUM_PATH;
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

const PAGE = `<!doctype html><html><head><title>Live</title><link rel="stylesheet" href="/style.css"></head>
<body><p>static text</p><img src="http://10.1.2.3/pixel.png"><img src="/to-private.png">
<script>fetch('/data.json').then(r => r.json()).then(d => {
  document.body.insertAdjacentHTML('beforeend', '<p id="done">rendered by script: ' + d.word + '</p>');
});</script></body></html>`;

let workspace: string;
const servers: LocalServer[] = [];
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'download-render-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(workspace, { recursive: true, force: true });
});

async function site() {
  const s = await startLocalServer((req, res) => {
    if (req.url === '/data.json') return void res.end('{"word":"hello"}');
    if (req.url === '/style.css') return void res.end('p { color: green }');
    if (req.url === '/to-private.png')
      return void res.writeHead(302, { location: 'http://192.168.7.7/x.png' }).end();
    if (req.url === '/start') return void res.writeHead(302, { location: '/page' }).end();
    if (req.url === '/slow') return;
    if (req.url === '/hanging')
      return void res.end('<html><body><p>waiting</p><script src="/slow"></script></body></html>');
    res.setHeader('content-type', 'text/html');
    res.end(PAGE);
  });
  servers.push(s);
  return s;
}

// Chromium processes started by this test process (its direct children), from /proc.
function childBrowsers(): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      return ppid === process.pid && cmdline.includes('chromium') ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

function call(args: Record<string, unknown>, options: { chromiumPath?: string; signal?: AbortSignal } = {}) {
  const { ctx } = testContext({
    workspace,
    services: { web: { allowedHosts: ['127.0.0.1'], chromiumPath: options.chromiumPath ?? CHROMIUM } },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return downloadFileTool.handler(args, ctx);
}

describe('download_file render=true', () => {
  it('says clearly when no browser exists', async () => {
    await expect(
      call(
        { url: 'http://127.0.0.1:9/x', path: 'x.html', render: true },
        { chromiumPath: '/nonexistent/chromium' },
      ),
    ).rejects.toMatchObject({
      code: 'browser_unavailable',
      message: expect.stringMatching(/web\.chromiumPath/),
    });
  });

  it.runIf(!HAVE_CHROMIUM)('reports the missing default browser', async () => {
    await expect(call({ url: 'http://127.0.0.1:9/x', path: 'x.html', render: true })).rejects.toMatchObject({
      code: 'browser_unavailable',
    });
  });

  it.runIf(HAVE_CHROMIUM)(
    'saves the HTML after scripts ran, with every request through the guard',
    async () => {
      const s = await site();
      const watch = watchConnections();
      try {
        await call({ url: `${s.url}/start`, path: 'page.html', render: true });
      } finally {
        watch.stop();
      }
      const html = fs.readFileSync(path.join(workspace, 'page.html'), 'utf8');
      expect(html).toContain('rendered by script: hello');
      // The private image and the redirect to a private address were refused before connecting.
      expect(new Set(watch.connectedTo)).toEqual(new Set(['127.0.0.1']));
      expect(s.requests.map((r) => r.url)).toEqual(
        expect.arrayContaining(['/start', '/page', '/data.json', '/style.css']),
      );
    },
    60_000,
  );

  it.runIf(HAVE_CHROMIUM)(
    'saves a PDF or a PNG by the extension',
    async () => {
      const s = await site();
      await call({ url: `${s.url}/page`, path: 'out/page.pdf', render: true });
      await call({ url: `${s.url}/page`, path: 'out/page.png', render: true });
      expect(fs.readFileSync(path.join(workspace, 'out/page.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
      expect(fs.readFileSync(path.join(workspace, 'out/page.png')).subarray(1, 4).toString()).toBe('PNG');
    },
    60_000,
  );

  it.runIf(HAVE_CHROMIUM)(
    'stops the browser and its requests on cancel',
    async () => {
      const s = await site();
      const controller = new AbortController();
      const run = call(
        { url: `${s.url}/hanging`, path: 'slow.html', render: true },
        { signal: controller.signal },
      );
      // Cancel once Chromium is waiting on the script that never arrives.
      while (!s.requests.some((r) => r.url === '/slow')) await new Promise((r) => setTimeout(r, 50));
      expect(childBrowsers().length).toBeGreaterThan(0);
      const started = Date.now();
      controller.abort(new Error('cancelled by the user'));
      await expect(run).rejects.toThrow('cancelled by the user');
      expect(Date.now() - started).toBeLessThan(3000);
      await s.allClosed();
      expect(childBrowsers()).toEqual([]);
      expect(fs.readdirSync(workspace)).toEqual([]);
    },
    60_000,
  );
});
