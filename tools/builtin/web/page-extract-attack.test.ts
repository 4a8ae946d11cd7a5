// Attack: a hostile page within fetch_page's byte cap (a few hundred KB of nested elements) kept jsdom, Readability
// and turndown busy for tens of seconds to minutes in the app's own thread: the call's timeout and cancel could not
// interrupt synchronous work, and the whole app froze. The extraction runs in a worker now, ended on abort.
import { afterEach, expect, it } from 'vitest';
import { fetchPageTool } from '../fetch-page';
import { testContext } from '../../sdk/testing/tool-context';
import type { LocalServer } from './testing/local-server';
import { startLocalServer } from './testing/local-server';

let site: LocalServer | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

it('a page built to stall the extraction neither freezes the app nor outlives a cancel', async () => {
  const html = `<!doctype html><html><head><title>t</title></head><body>${'<div>'.repeat(40_000)}x</body></html>`;
  site = await startLocalServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(html);
  });
  const web = {
    allowedHosts: ['evil.test'],
    resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
  };
  const controller = new AbortController();
  const { ctx } = testContext({ signal: controller.signal, services: { web } });
  // The app's thread must keep turning: the longest gap between ticks is measured while the call runs.
  let last = Date.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    longestGap = Math.max(longestGap, Date.now() - last);
    last = Date.now();
  }, 50);
  const started = Date.now();
  setTimeout(() => controller.abort(new Error('cancelled by the test')), 3000);
  try {
    await expect(fetchPageTool.handler({ url: `http://evil.test:${site.port}/` }, ctx)).rejects.toThrow(
      'cancelled by the test',
    );
  } finally {
    clearInterval(ticker);
  }
  expect(Date.now() - started).toBeLessThan(6000);
  expect(longestGap).toBeLessThan(1500);
}, 120_000);
