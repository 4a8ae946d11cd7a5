import { afterEach, describe, expect, it } from 'vitest';
import { httpRequestTool } from './http-request';
import { testContext } from '../sdk/testing/tool-context';
import type { ToolServices } from '../sdk/types';
import { CredentialError } from '../sdk/types';
import { watchConnections } from './web/testing/connection-watch';
import type { LocalServer } from './web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from './web/testing/local-server';

const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(handler: Parameters<typeof startLocalServer>[0]) {
  const s = await startLocalServer(handler);
  servers.push(s);
  return s;
}

async function call(
  args: Record<string, unknown>,
  options: { services?: ToolServices; secrets?: Record<string, string>; signal?: AbortSignal } = {},
) {
  const { ctx } = testContext({
    services: options.services ?? { web: LOOPBACK_ALLOWED },
    getSecret: async (key) => options.secrets?.[key],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return httpRequestTool.handler(args, ctx);
}

const text = (result: unknown) => JSON.stringify(result);

describe('http_request', () => {
  it('sends method, headers and body and returns status, headers and the body text', async () => {
    const s = await server((req, res, body) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-echo', String(req.headers['x-demo']));
      res.end(JSON.stringify({ got: body, method: req.method }));
    });
    const result = await call({
      url: `${s.url}/items`,
      method: 'POST',
      headers: { 'X-Demo': 'yes', 'Content-Type': 'application/json' },
      body: '{"name":"demo"}',
    });
    expect(text(result)).toContain('HTTP 200 OK (POST');
    expect(text(result)).toContain('x-echo: yes');
    expect(text(result)).toContain('\\"method\\":\\"POST\\"');
    expect(s.requests[0]?.body).toBe('{"name":"demo"}');
  });

  it('rejects bad input with an error naming the parameter', async () => {
    await expect(call({})).rejects.toThrow(/`url` is required/);
    await expect(call({ url: 'not a url' })).rejects.toThrow(/`url` must be an absolute http/);
    await expect(call({ url: 'ftp://example.com/x' })).rejects.toThrow(/`url` must use http or https/);
    await expect(call({ url: 'http://127.0.0.1/', method: 'FETCH' })).rejects.toThrow(
      /`method` must be one of/,
    );
    await expect(call({ url: 'http://127.0.0.1/', headers: ['a'] })).rejects.toThrow(
      /`headers` must be an object/,
    );
    await expect(call({ url: 'http://127.0.0.1/', headers: { 'bad name': 'x' } })).rejects.toThrow(
      /`headers` has an invalid/,
    );
    await expect(call({ url: 'http://127.0.0.1/', timeout: -1 })).rejects.toThrow(
      /`timeout` must be a number/,
    );
    await expect(call({ url: 'http://127.0.0.1/', body: 'x' })).rejects.toThrow(
      /`body` cannot be sent with GET/,
    );
    await expect(call({ url: 'http://127.0.0.1/${secret:bad-name}' })).rejects.toThrow(
      /`url` has a malformed secret/,
    );
  });

  it('cuts a slow response at its timeout and really closes the connection', async () => {
    const s = await server(() => {
      // Never answers.
    });
    const started = Date.now();
    await expect(call({ url: `${s.url}/slow`, timeout: 0.5 })).rejects.toMatchObject({ code: 'timed_out' });
    expect(Date.now() - started).toBeLessThan(3000);
    await s.allClosed();
    expect(s.connections()).toBe(1);
  });

  it('clamps the timeout to 300 s', async () => {
    const s = await server((_req, res) => res.end('ok'));
    await expect(call({ url: s.url, timeout: 100_000 })).resolves.toBeTruthy();
  });

  it('stops the request when the call is cancelled', async () => {
    const controller = new AbortController();
    const s = await server(() => controller.abort(new Error('stop')));
    await expect(call({ url: `${s.url}/hang` }, { signal: controller.signal })).rejects.toThrow('stop');
    await s.allClosed();
  });

  it('resolves ${secret:NAME} in URL, headers and body', async () => {
    const s = await server((req, res, body) => res.end(`${req.url} ${req.headers.authorization} ${body}`));
    await call(
      {
        url: `${s.url}/q?key=\${secret:URL_KEY}`,
        method: 'PUT',
        headers: { Authorization: 'Bearer ${secret:API_TOKEN}' },
        body: 'token=${secret:API_TOKEN}',
      },
      { secrets: { API_TOKEN: 'tok-123', URL_KEY: 'a b&c' } },
    );
    expect(s.requests[0]).toMatchObject({ url: '/q?key=a%20b%26c', body: 'token=tok-123' });
    expect(s.requests[0]?.headers.authorization).toBe('Bearer tok-123');
  });

  it('never reports a secret it sent: a DNS error on a secret host name names the key instead', async () => {
    // A short secret (4-7 characters) is one the app-wide redactor matches exactly only; the DNS error lower-cases it.
    for (const value of ['QzKa7', 'CanaryHostKEY7Qx9']) {
      const error = (await call(
        { url: 'https://${secret:HOST_KEY}.invalid/', timeout: 20 },
        { secrets: { HOST_KEY: value }, services: {} },
      ).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(Error);
      const shown = `${error.message}\n${error.stack}\n${JSON.stringify(error)}`;
      expect(shown).toContain('[redacted:HOST_KEY].invalid');
      expect(shown.toLowerCase()).not.toContain(value.toLowerCase());
    }
  });

  it('names a missing secret in a CredentialError before sending anything', async () => {
    const s = await server((_req, res) => res.end());
    const error = await call({ url: s.url, headers: { Authorization: 'Bearer ${secret:API_TOKEN}' } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CredentialError);
    expect(error).toMatchObject({ key: 'API_TOKEN', reason: 'missing' });
    expect(s.connections()).toBe(0);
  });

  it('turns 401/403 on a request that used a secret into a CredentialError naming it', async () => {
    const s = await server((req, res) => {
      res.statusCode = req.url === '/forbidden' ? 403 : 401;
      res.end('bad token');
    });
    const error = await call(
      { url: s.url, headers: { Authorization: 'Bearer ${secret:API_TOKEN}' } },
      { secrets: { API_TOKEN: 'old' } },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ key: 'API_TOKEN', reason: 'rejected', code: 'credential_rejected' });
    expect(String(error)).toContain('API_TOKEN');
    const viaUrl = await call(
      { url: `${s.url}/forbidden?k=\${secret:URL_KEY}` },
      { secrets: { URL_KEY: 'k' } },
    ).catch((e: unknown) => e);
    expect(viaUrl).toMatchObject({ key: 'URL_KEY', reason: 'rejected' });
    // Without a secret a 401 is just a response.
    expect(text(await call({ url: s.url }))).toContain('HTTP 401');
  });

  it('follows redirects and drops secret headers when one leaves the origin', async () => {
    const target = await server((req, res) => res.end(`auth=${req.headers.authorization ?? 'none'}`));
    const origin = await server((req, res) => {
      if (req.url === '/final') return void res.end(`auth=${req.headers.authorization ?? 'none'}`);
      res.statusCode = 302;
      res.setHeader('location', req.url === '/same' ? '/final' : `${target.url}/elsewhere`);
      res.end();
    });
    const same = await call(
      { url: `${origin.url}/same`, headers: { Authorization: 'x ${secret:T}' } },
      { secrets: { T: 't' } },
    );
    expect(text(same)).toContain('after 1 redirect');
    expect(text(same)).toContain('auth=x t');
    const cross = await call(
      { url: `${origin.url}/away`, headers: { Authorization: 'x ${secret:T}' } },
      { secrets: { T: 't' } },
    );
    expect(text(cross)).toContain('auth=none');
  });

  it('describes binary bodies and caps long text with a note', async () => {
    const s = await server((req, res) => {
      if (req.url === '/png') {
        res.setHeader('content-type', 'image/png');
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
      } else res.end('x'.repeat(150_000));
    });
    expect(text(await call({ url: `${s.url}/png` }))).toContain('binary body: image/png, 8 bytes');
    expect(text(await call({ url: `${s.url}/long` }))).toContain(
      'showing the first 100000 of 150000 characters',
    );
  });
});

describe('http_request address blocking', () => {
  it('blocks loopback by default without connecting', async () => {
    const s = await server((_req, res) => res.end('secret intranet'));
    await expect(call({ url: s.url }, { services: {} })).rejects.toMatchObject({ code: 'blocked_address' });
    await expect(
      call({ url: `http://[::ffff:127.0.0.1]:${s.port}/` }, { services: {} }),
    ).rejects.toMatchObject({
      code: 'blocked_address',
    });
    expect(s.connections()).toBe(0);
  });

  it('blocks a private literal and a name that resolves to private or loopback, before connecting', async () => {
    const s = await server((_req, res) => res.end());
    const watch = watchConnections();
    const resolved: string[] = [];
    const web = {
      resolve: async (host: string) => {
        resolved.push(host);
        return [{ address: host === 'loop.test' ? '127.0.0.1' : '10.20.30.40', family: 4 as const }];
      },
    };
    try {
      await expect(call({ url: 'http://10.1.2.3/' }, { services: { web } })).rejects.toThrow(
        /10\.1\.2\.3 is a private address/,
      );
      await expect(call({ url: `http://loop.test:${s.port}/` }, { services: { web } })).rejects.toThrow(
        /loop\.test \(127\.0\.0\.1\) is a loopback address/,
      );
      await expect(call({ url: 'http://intranet.test/' }, { services: { web } })).rejects.toMatchObject({
        code: 'blocked_address',
      });
    } finally {
      watch.stop();
    }
    expect(resolved).toEqual(['loop.test', 'intranet.test']);
    expect(watch.connectedTo).toEqual([]);
    expect(s.connections()).toBe(0);
  });

  it('blocks a redirect to a private address before connecting to it', async () => {
    const s = await server((_req, res) => {
      res.statusCode = 301;
      res.setHeader('location', 'http://10.9.9.9:8080/admin');
      res.end();
    });
    const watch = watchConnections();
    try {
      await expect(call({ url: s.url })).rejects.toThrow(/10\.9\.9\.9 is a private address/);
    } finally {
      watch.stop();
    }
    expect(watch.connectedTo).toEqual(['127.0.0.1']);
  });

  it('pins the connection to the checked address (no second look-up to rebind)', async () => {
    const s = await server((req, res) => res.end(`host=${req.headers.host}`));
    let calls = 0;
    const web = {
      allowedHosts: ['rebind.test'],
      resolve: async () => {
        calls++;
        return [{ address: '127.0.0.1', family: 4 as const }];
      },
    };
    const result = await call({ url: `http://rebind.test:${s.port}/` }, { services: { web } });
    expect(text(result)).toContain(`host=rebind.test:${s.port}`);
    expect(calls).toBe(1);
  });

  it('reaches private addresses when settings allow the private network', async () => {
    const s = await server((_req, res) => res.end('inside'));
    expect(text(await call({ url: s.url }, { services: { web: { allowPrivateNetwork: true } } }))).toContain(
      'inside',
    );
  });
});
