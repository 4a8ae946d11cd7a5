// Attack: a page rendered by download_file render=true (real Chromium) tries to reach a service on this machine
// through what escapes the page's own request routing (a popup, a form posted into a new window, a download
// link, a beacon, an iframe) and to navigate itself to a local file, whose text would then be saved in the workspace.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from '../download-file';
import { testContext } from '../../sdk/testing/tool-context';
import { DEFAULT_CHROMIUM_PATH } from '../../sdk/web/web-settings';
import type { LocalServer } from './testing/local-server';
import { startLocalServer } from './testing/local-server';

const CHROMIUM = process.env.AGENVOY_TEST_CHROMIUM || DEFAULT_CHROMIUM_PATH;
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

let workspace: string;
const servers: LocalServer[] = [];
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'render-attack-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(workspace, { recursive: true, force: true });
});

// Everything the page aims at this machine's service, each by a route page.route does not see or by a local file.
function hostilePage(victim: string): string {
  return `<!doctype html><html><head><title>hostile</title></head><body>
<p id="mark">hostile page</p>
<iframe src="${victim}/iframe"></iframe>
<img src="http://localhost:${new URL(victim).port}/by-name.png">
<a id="dl" href="${victim}/download.bin" download>get</a>
<form id="f" method="post" action="${victim}/form" target="_blank"><input name="a" value="b"></form>
<script>
  window.open('${victim}/popup', '_blank');
  navigator.sendBeacon('${victim}/beacon', 'x');
  document.getElementById('dl').click();
  document.getElementById('f').submit();
  new Worker(URL.createObjectURL(new Blob(["fetch('${victim}/worker')"], { type: 'text/javascript' })));
</script></body></html>`;
}

// A page that sends itself to `target` once it has loaded (`%72` keeps the marker out of the page's own text).
const navigating = (target: string) =>
  `<!doctype html><html><body><p>hostile page</p><script>
  setTimeout(() => { location.href = '${target}'; }, 100);</script></body></html>`;

async function render(page: string): Promise<string> {
  const site = await startLocalServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(page);
  });
  servers.push(site);
  // The page's own host is allowed by name; this machine's address by itself is not.
  const web = {
    allowedHosts: ['evil.test'],
    chromiumPath: CHROMIUM,
    resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
  };
  const { ctx } = testContext({ workspace, services: { web } });
  await downloadFileTool.handler(
    { url: `http://evil.test:${site.port}/`, path: 'page.html', render: true },
    ctx,
  );
  expect(fs.readdirSync(workspace)).toEqual(['page.html']);
  return fs.readFileSync(path.join(workspace, 'page.html'), 'utf8');
}

describe.skipIf(!HAVE_CHROMIUM)('a rendered page reaching this machine', () => {
  it('reaches no local service by popup, form, download, beacon, iframe or worker', async () => {
    const victim = await startLocalServer((_req, res) => res.end('internal admin panel'));
    servers.push(victim);
    const saved = await render(hostilePage(victim.url));
    expect(saved).not.toContain('internal admin panel');
    expect(victim.requests.map((r) => r.url)).toEqual([]);
    expect(victim.connections()).toBe(0);
  }, 60_000);

  it.each([
    'file:///etc/passwd',
    'view-source:file:///etc/passwd',
    'data:text/html,<p>%72oot:x:0:0:data</p>',
  ])(
    'saves no local file or data page it navigates to: %s',
    async (target) => {
      const saved = await render(navigating(target));
      expect(saved).toContain('hostile page');
      expect(saved).not.toMatch(/root:.*:0:0:/);
    },
    60_000,
  );
});
