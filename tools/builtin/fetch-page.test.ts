import { afterEach, describe, expect, it } from 'vitest';
import { fetchPageTool } from './fetch-page';
import { testContext } from '../sdk/testing/tool-context';
import type { ToolServices } from '../sdk/types';
import { watchConnections } from './web/testing/connection-watch';
import type { LocalServer } from './web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from './web/testing/local-server';

const ARTICLE = `<!doctype html><html><head><title>Fox facts</title></head><body>
<nav><a href="/">Home</a> | <a href="/shop">Shop</a></nav>
<article><h1>Fox facts</h1><p class="byline">By Ada</p>
${'<p>The red fox is the largest of the true foxes and one of the most widely distributed members of the order Carnivora. </p>'.repeat(8)}
<p>Read <a href="/more">more about foxes</a>.</p><script>document.write('tracker')</script></article>
<footer>Copyright ads ads ads</footer></body></html>`;

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function site() {
  const s = await startLocalServer((req, res) => {
    if (req.url === '/api') {
      res.setHeader('content-type', 'application/json');
      return void res.end('{"items":[1,2],"ok":true}');
    }
    if (req.url === '/missing') {
      res.statusCode = 404;
      return void res.end('nope');
    }
    if (req.url === '/hang') return;
    if (req.url === '/to-private') {
      res.statusCode = 302;
      res.setHeader('location', 'http://192.168.0.1/router');
      return void res.end();
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(ARTICLE);
  });
  servers.push(s);
  return s;
}

async function call(
  args: Record<string, unknown>,
  options: { services?: ToolServices; signal?: AbortSignal } = {},
) {
  const { ctx } = testContext({
    services: options.services ?? { web: LOOPBACK_ALLOWED },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return fetchPageTool.handler(args, ctx);
}

const text = (result: unknown) => (typeof result === 'string' ? result : JSON.stringify(result));

describe('fetch_page', () => {
  it('returns the readable article as markdown with absolute links, without menus or scripts', async () => {
    const s = await site();
    const result = text(await call({ url: `${s.url}/fox` }));
    expect(result).toContain('# Fox facts');
    expect(result).toContain('The red fox is the largest');
    expect(result).toContain(`[more about foxes](${s.url}/more)`);
    expect(result).not.toContain('tracker');
    expect(result).not.toContain('Shop');
  });

  it('returns raw HTML or pretty JSON by format', async () => {
    const s = await site();
    expect(text(await call({ url: `${s.url}/fox`, format: 'html' }))).toContain('<nav>');
    expect(await call({ url: `${s.url}/api`, format: 'json' })).toContain('"items": [\n');
    await expect(call({ url: `${s.url}/fox`, format: 'json' })).rejects.toThrow(/`format` "json".*not JSON/);
  });

  it('rejects bad input and reports HTTP errors', async () => {
    const s = await site();
    await expect(call({})).rejects.toThrow(/`url` is required/);
    await expect(call({ url: 'file:///etc/passwd' })).rejects.toThrow(/`url` must use http or https/);
    await expect(call({ url: s.url, format: 'pdf' })).rejects.toThrow(/`format` must be one of/);
    await expect(call({ url: `${s.url}/missing` })).rejects.toMatchObject({ code: 'http_error' });
  });

  it('is stopped by its signal at the limit, and the connection closes', async () => {
    const s = await site();
    // The dispatcher fires the signal at the registered 90 s; here a scaled-down limit of 300 ms.
    const started = Date.now();
    await expect(call({ url: `${s.url}/hang` }, { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(2000);
    await s.allClosed();
  });

  it('is cancelled by its signal', async () => {
    const s = await site();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 100);
    await expect(call({ url: `${s.url}/hang` }, { signal: controller.signal })).rejects.toThrow(
      'cancelled by the user',
    );
    await s.allClosed();
  });

  it('blocks loopback by default and private redirect targets, before connecting', async () => {
    const s = await site();
    await expect(call({ url: `${s.url}/fox` }, { services: {} })).rejects.toMatchObject({
      code: 'blocked_address',
    });
    expect(s.connections()).toBe(0);
    const watch = watchConnections();
    try {
      await expect(call({ url: `${s.url}/to-private` })).rejects.toThrow(
        /192\.168\.0\.1 is a private address/,
      );
    } finally {
      watch.stop();
    }
    expect(watch.connectedTo).toEqual(['127.0.0.1']);
  });
});
