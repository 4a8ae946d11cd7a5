// Attack: a server the person approved answers a request whose body carries a `${secret:NAME}` value with a
// 307/308 (or a 301/302 to a PUT) to another origin. Redirects that keep the method keep the body, so the secret
// would go to a host nobody approved; credential headers were already dropped on such a hop, the body was not.
import { afterEach, describe, expect, it } from 'vitest';
import { httpRequestTool } from '../http-request';
import { testContext } from '../../sdk/testing/tool-context';
import type { LocalServer } from './testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from './testing/local-server';

const SECRET = 'sk-live-0123456789abcdef';
const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(handler: Parameters<typeof startLocalServer>[0]) {
  const s = await startLocalServer(handler);
  servers.push(s);
  return s;
}

// The stranger's host (another port: another origin), and the approved host that redirects every request to it.
async function redirectingPair(status: number) {
  const stranger = await server((_req, res, body) => res.end(`stranger got: ${body}`));
  const approved = await server((req, res, body) => {
    if (req.url === '/final') return void res.end(`approved got: ${body}`);
    res.statusCode = status;
    res.setHeader('location', req.url === '/same' ? '/final' : `${stranger.url}/collect`);
    res.end();
  });
  return { stranger, approved };
}

async function call(args: Record<string, unknown>) {
  const { ctx } = testContext({
    services: { web: LOOPBACK_ALLOWED },
    getSecret: async (key) => (key === 'PAY_KEY' ? SECRET : undefined),
  });
  return httpRequestTool.handler(args, ctx);
}

describe('a redirect to another origin never carries a body that holds a secret', () => {
  it.each([
    [307, 'POST'],
    [308, 'POST'],
    [301, 'PUT'],
    [302, 'PATCH'],
  ])(
    '%i after a %s: refused, naming the secret and the new origin; the stranger gets nothing',
    async (status, method) => {
      const { stranger, approved } = await redirectingPair(status);
      const attempt = call({
        url: `${approved.url}/pay`,
        method,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'amount=1&key=${secret:PAY_KEY}',
      });
      await expect(attempt).rejects.toMatchObject({ code: 'redirect_refused' });
      await expect(attempt).rejects.toThrow(`to ${stranger.url}/collect, another origin`);
      await expect(attempt).rejects.toThrow('the request body holds the secret PAY_KEY');
      expect(stranger.requests.map((r) => r.body)).toEqual([]);
      expect(stranger.connections()).toBe(0);
    },
  );

  it('the same body follows a redirect within the origin, and a body without a secret follows anywhere', async () => {
    const { stranger, approved } = await redirectingPair(307);
    const same = JSON.stringify(
      await call({ url: `${approved.url}/same`, method: 'POST', body: 'key=${secret:PAY_KEY}' }),
    );
    expect(same).toContain(`approved got: key=${SECRET}`);
    expect(stranger.requests).toEqual([]);
    const plain = JSON.stringify(await call({ url: `${approved.url}/pay`, method: 'POST', body: 'hello' }));
    expect(plain).toContain('stranger got: hello');
  });

  it('a 303 to another origin drops the body and follows as a GET', async () => {
    const { stranger, approved } = await redirectingPair(303);
    const result = JSON.stringify(
      await call({ url: `${approved.url}/pay`, method: 'POST', body: 'key=${secret:PAY_KEY}' }),
    );
    expect(result).toContain('stranger got: ');
    expect(stranger.requests).toMatchObject([{ method: 'GET', body: '' }]);
  });
});
