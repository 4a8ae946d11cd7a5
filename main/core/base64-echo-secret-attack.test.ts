// Attack: a server echoes the key it was sent as an Authorization header `Basic base64(user:KEY)` (the key at each of
// the three byte alignments), or a token carrying the key base64url-encoded, or a Windows-style server answers in UTF-16LE.
// Already refused (the base64 cores at three alignments; the body decoded by its charset); pinned. Through the real
// dispatcher, http_request and a real HTTP server on 127.0.0.1 (docs/security.md, "Redaction"). MIME base64 wrapped
// inside the key is not matched (docs/security.md says why).
import { afterEach, expect, it } from 'vitest';
import { httpRequestTool } from '../../tools/builtin/http-request';
import type { LocalServer } from '../../tools/builtin/web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from '../../tools/builtin/web/testing/local-server';
import { testCore } from './testing/test-core';

const KEY = 'sk-live-Q9wZt7Rb2Kx';

const ECHOES: Array<[string, (key: string, user: string) => string]> = [
  ['a Basic auth header', (key, user) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`],
  [
    'a JWT-like payload',
    (key, user) => Buffer.from(JSON.stringify({ sub: user, key })).toString('base64url'),
  ],
];

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

for (const user of ['u', 'us', 'usr'])
  it.each(ECHOES)(`a key echoed back as %s (user ${user}) is redacted in the result`, async (_name, echo) => {
    server = await startLocalServer((req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`you sent: ${echo((req.headers.authorization ?? '').replace('Bearer ', ''), user)} end`);
    });
    const core = testCore([httpRequestTool], {
      services: { web: LOOPBACK_ALLOWED },
      getSecret: async (name) => (name === 'SHOP_KEY' ? KEY : undefined),
    });
    core.redactor.add('SHOP_KEY', KEY);
    const outcome = await core.dispatcher.dispatch(
      {
        id: 'b1',
        name: 'http_request',
        args: { url: `${server.url}/echo`, headers: { Authorization: 'Bearer ${secret:SHOP_KEY}' } },
      },
      { chatId: 'b64', workspace: core.dir },
    );
    const shown = JSON.stringify(outcome);
    expect(shown).toContain('you sent:');
    expect(shown).toContain('[redacted:SHOP_KEY]');
    expect(shown).not.toContain(echo(KEY, user).slice(-20, -6));
  });

it('a key in UTF-16LE output is redacted in the result', async () => {
  server = await startLocalServer((_req, res) => {
    res.setHeader('content-type', 'text/plain; charset=utf-16le');
    res.end(Buffer.from(`token=${KEY}\r\n`, 'utf16le'));
  });
  const core = testCore([httpRequestTool], {
    services: { web: LOOPBACK_ALLOWED },
    getSecret: async (name) => (name === 'SHOP_KEY' ? KEY : undefined),
  });
  core.redactor.add('SHOP_KEY', KEY);
  const outcome = await core.dispatcher.dispatch(
    { id: 'u1', name: 'http_request', args: { url: `${server.url}/w` } },
    { chatId: 'u16', workspace: core.dir },
  );
  const shown = JSON.stringify(outcome);
  expect(shown).not.toContain('Q9wZt7');
  expect(shown).not.toContain('Q\\u00009\\u0000w');
});
