import { afterEach, describe, expect, it } from 'vitest';
import { searchWebTool } from './search-web';
import { MAX_SEARCH_ANSWER_BYTES } from './web/search-backends';
import { testContext } from '../sdk/testing/tool-context';
import type { WebSettings } from '../sdk/web/web-settings';
import type { LocalServer } from './web/testing/local-server';
import { startLocalServer } from './web/testing/local-server';

const servers: LocalServer[] = [];
let sent = 0;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

// Speaks SearXNG's /search?format=json and Brave's /res/v1/web/search the way the real services answer.
async function fakeBackends() {
  const s = await startLocalServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/searx/search') {
      if (url.searchParams.get('format') !== 'json') return void res.writeHead(403).end();
      return void res.end(
        JSON.stringify({
          query: url.searchParams.get('q'),
          number_of_results: 2,
          results: [
            {
              url: 'https://a.example/fox',
              title: 'Red fox',
              content: 'The <b>red fox</b> is a mammal',
              engine: 'ddg',
            },
            { url: 'https://b.example/fox', title: 'Fox', content: 'More &amp; more', engine: 'bing' },
          ],
        }),
      );
    }
    if (url.pathname === '/res/v1/web/search') {
      if (req.headers['x-subscription-token'] !== 'brave-key') {
        res.statusCode = 422;
        return void res.end(
          JSON.stringify({ type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID' } }),
        );
      }
      return void res.end(
        JSON.stringify({
          type: 'search',
          query: { original: url.searchParams.get('q') },
          web: {
            type: 'search',
            results: Array.from({ length: Number(url.searchParams.get('count')) }, (_, i) => ({
              title: `Result <strong>${i + 1}</strong>`,
              url: `https://r${i + 1}.example/`,
              description: `About <strong>foxes</strong> ${i + 1}`,
            })),
          },
        }),
      );
    }
    if (url.pathname === '/slow/search') return;
    if (url.pathname === '/endless/search') {
      // A results page that never ends: 64 KiB at a time, for as long as anyone reads (bounded for the test).
      const chunk = Buffer.alloc(64 * 1024, ' ');
      res.write('{"results": [');
      const pump = (): void => {
        while (!res.destroyed && sent < 256 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      return pump();
    }
    res.statusCode = 404;
    res.end('{}');
  });
  servers.push(s);
  return s;
}

async function call(
  args: Record<string, unknown>,
  web: WebSettings,
  options: { secrets?: Record<string, string>; signal?: AbortSignal } = {},
) {
  const { ctx } = testContext({
    services: { web },
    getSecret: async (key) => options.secrets?.[key],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return searchWebTool.handler(args, ctx);
}

const text = (result: unknown) => JSON.stringify(result);

describe('search_web', () => {
  it('queries SearXNG as JSON and returns title, url and snippet', async () => {
    const s = await fakeBackends();
    const result = await call(
      { query: 'red fox', count: 5 },
      { search: { backend: 'searxng', url: `${s.url}/searx` } },
    );
    expect(text(result)).toContain('1. Red fox\\n   https://a.example/fox\\n   The red fox is a mammal');
    expect(text(result)).toContain('More & more');
    expect(s.requests[0]?.url).toBe('/searx/search?q=red+fox&format=json');
  });

  it('queries Brave with the key from the secret store', async () => {
    const s = await fakeBackends();
    const web: WebSettings = {
      search: { backend: 'brave', url: `${s.url}/res/v1/web/search`, keyName: 'BRAVE_KEY' },
    };
    const result = (await call({ query: 'fox', count: 3 }, web, { secrets: { BRAVE_KEY: 'brave-key' } })) as {
      data: { results: unknown[] };
    };
    expect(result.data.results).toEqual([
      { title: 'Result 1', url: 'https://r1.example/', snippet: 'About foxes 1' },
      { title: 'Result 2', url: 'https://r2.example/', snippet: 'About foxes 2' },
      { title: 'Result 3', url: 'https://r3.example/', snippet: 'About foxes 3' },
    ]);
    expect(s.requests[0]?.headers['x-subscription-token']).toBe('brave-key');
  });

  it('reports a missing or rejected Brave key as a CredentialError naming it', async () => {
    const s = await fakeBackends();
    const web: WebSettings = {
      search: { backend: 'brave', url: `${s.url}/res/v1/web/search`, keyName: 'BRAVE_KEY' },
    };
    await expect(call({ query: 'fox' }, web)).rejects.toMatchObject({ key: 'BRAVE_KEY', reason: 'missing' });
    expect(s.connections()).toBe(0);
    await expect(call({ query: 'fox' }, web, { secrets: { BRAVE_KEY: 'wrong' } })).rejects.toMatchObject({
      key: 'BRAVE_KEY',
      reason: 'rejected',
    });
  });

  it('says how to configure a backend when none is', async () => {
    await expect(call({ query: 'fox' }, {})).rejects.toMatchObject({ code: 'search_not_configured' });
    await expect(call({ query: 'fox' }, {})).rejects.toThrow(/"backend": "searxng"/);
    await expect(call({ query: 'fox' }, { search: { backend: 'searxng' } })).rejects.toThrow(
      /web\.search\.url is missing/,
    );
  });

  it('rejects bad input naming the parameter', async () => {
    const web: WebSettings = { search: { backend: 'searxng', url: 'http://127.0.0.1:9' } };
    await expect(call({}, web)).rejects.toThrow(/`query` is required/);
    await expect(call({ query: '  ' }, web)).rejects.toThrow(/`query` must not be empty/);
    await expect(call({ query: 'x', count: 50 }, web)).rejects.toThrow(
      /`count` must be a whole number from 1 to 20/,
    );
  });

  it('is stopped at its limit and on cancel, closing the connection', async () => {
    const s = await fakeBackends();
    const web: WebSettings = { search: { backend: 'searxng', url: `${s.url}/slow` } };
    await expect(call({ query: 'x' }, web, { signal: AbortSignal.timeout(300) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 100);
    await expect(call({ query: 'x' }, web, { signal: controller.signal })).rejects.toThrow(
      'cancelled by the user',
    );
    await s.allClosed();
    expect(s.connections()).toBe(2);
  });

  it('stops reading an answer past its bound and says so, instead of growing memory until the limit', async () => {
    const s = await fakeBackends();
    sent = 0;
    const web: WebSettings = { search: { backend: 'searxng', url: `${s.url}/endless` } };
    await expect(call({ query: 'x' }, web)).rejects.toMatchObject({
      code: 'search_failed',
      message: expect.stringContaining(`larger than ${MAX_SEARCH_ANSWER_BYTES / (1024 * 1024)} MiB`),
    });
    await s.allClosed();
    expect(sent).toBeLessThan(MAX_SEARCH_ANSWER_BYTES + 16 * 1024 * 1024);
  });
});
