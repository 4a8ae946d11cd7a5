// Attack: a page rendered by download_file render=true never lets the render end: a script spinning forever
// (`while (true) {}`) before the DOM is ready, or after it, so that saving it never returns. The `timeout` parameter
// was not used with render=true, so Chromium stayed busy until the tool's own 10 minutes ran out. The timeout now
// holds the render too: the call ends with timed_out at it, and Chromium is gone.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from './download-file';
import { testContext } from '../sdk/testing/tool-context';
import { DEFAULT_CHROMIUM_PATH } from '../sdk/web/web-settings';
import type { LocalServer } from './web/testing/local-server';
import { startLocalServer } from './web/testing/local-server';

const CHROMIUM = process.env.AGENVOY_TEST_CHROMIUM || DEFAULT_CHROMIUM_PATH;
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

let workspace: string;
let site: LocalServer | undefined;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'render-time-'));
});
afterEach(async () => {
  await site?.close();
  site = undefined;
  fs.rmSync(workspace, { recursive: true, force: true });
});

// Processes descended from this one (Chromium and its helpers, while a render runs).
function descendants(): string[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null);
  const ours = new Set([String(process.pid)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [, pid, ppid] of rows) {
      if (!ours.has(ppid!) || ours.has(pid!)) continue;
      ours.add(pid!);
      grew = true;
    }
  }
  return rows.filter(([, pid]) => pid !== String(process.pid) && ours.has(pid!)).map(([, , , args]) => args!);
}

async function renderSpinning(script: string, file: string) {
  site = await startLocalServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><html><body><p>spinning page</p><script>${script}</script></body></html>`);
  });
  const web = {
    allowedHosts: ['evil.test'],
    chromiumPath: CHROMIUM,
    resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
  };
  const controller = new AbortController();
  const { ctx } = testContext({ workspace, signal: controller.signal, services: { web } });
  const started = Date.now();
  const call = Promise.resolve(
    downloadFileTool.handler(
      { url: `http://evil.test:${site.port}/`, path: file, render: true, timeout: 3 },
      ctx,
    ),
  ).then(
    () => 'saved',
    (error: unknown) => error,
  );
  // Before the fix this never ended by itself: the test stops it after 30 s.
  const stop = setTimeout(() => controller.abort(new Error('still running after 30 s')), 30_000);
  const outcome = await call;
  clearTimeout(stop);
  return { outcome, seconds: (Date.now() - started) / 1000 };
}

describe.skipIf(!HAVE_CHROMIUM)('a rendered page that never lets the render end', () => {
  it('ends at the timeout when a script spins before the DOM is ready, Chromium gone', async () => {
    const { outcome, seconds } = await renderSpinning('while (true) {}', 'page.html');
    expect(outcome).toMatchObject({ code: 'timed_out' });
    expect(seconds).toBeLessThan(15);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(descendants().filter((args) => args.includes('chromium'))).toEqual([]);
    expect(fs.readdirSync(workspace)).toEqual([]);
  }, 60_000);

  it('ends at the timeout when a script spins once the page has loaded (saving it never returns)', async () => {
    const { outcome, seconds } = await renderSpinning(
      "addEventListener('load', () => setTimeout(() => { while (true) {} }, 0));",
      'page.png',
    );
    expect(outcome).toMatchObject({ code: 'timed_out' });
    expect(seconds).toBeLessThan(15);
  }, 60_000);
});
