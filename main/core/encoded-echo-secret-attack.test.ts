// Attack: a server (a debug echo) sends back the key it was sent in an encoding the redactor did not know: hex,
// `\xNN` escapes, `\u` escapes of every character, HTML numeric entities of every character. The whole key then
// reached the model in the tool's result. Through the real dispatcher, http_request and a real HTTP server on
// 127.0.0.1 (docs/security.md, "Redaction").
import { afterEach, expect, it } from 'vitest';
import { httpRequestTool } from '../../tools/builtin/http-request';
import type { LocalServer } from '../../tools/builtin/web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from '../../tools/builtin/web/testing/local-server';
import { testCore } from './testing/test-core';

const KEY = 'sk-live-Q9wZt7Rb2Kx';

const hex = (t: string): string => Buffer.from(t).toString('hex');
const each = (t: string, f: (code: number) => string): string =>
  [...Buffer.from(t)].map((byte) => f(byte)).join('');

const ENCODERS: Array<[string, (text: string) => string]> = [
  ['lower-case hex', (t) => hex(t)],
  ['upper-case hex', (t) => hex(t).toUpperCase()],
  ['\\xNN escapes', (t) => each(t, (c) => `\\x${c.toString(16).padStart(2, '0')}`)],
  ['\\u escapes of every character', (t) => each(t, (c) => `\\u${c.toString(16).padStart(4, '0')}`)],
  ['decimal HTML entities', (t) => each(t, (c) => `&#${c};`)],
  ['hex HTML entities', (t) => each(t, (c) => `&#x${c.toString(16)};`)],
];

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

it.each(ENCODERS)('a key echoed back as %s is redacted in the result', async (_name, encode) => {
  server = await startLocalServer((_req, res, body) => {
    res.setHeader('content-type', 'text/plain');
    res.end(`debug: received ${encode(body)} end`);
  });
  const core = testCore([httpRequestTool], {
    services: { web: LOOPBACK_ALLOWED },
    getSecret: async (name) => (name === 'SHOP_KEY' ? KEY : undefined),
  });
  core.redactor.add('SHOP_KEY', KEY);
  const outcome = await core.dispatcher.dispatch(
    {
      id: 'e1',
      name: 'http_request',
      args: {
        url: `${server.url}/echo`,
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: '${secret:SHOP_KEY}',
      },
    },
    { chatId: 'enc', workspace: core.dir },
  );
  const shown = JSON.stringify(outcome);
  expect(shown).toContain('received [redacted:SHOP_KEY] end');
  expect(shown.toLowerCase()).not.toContain(hex('Q9wZt7').toLowerCase());
  expect(shown).not.toContain(encode('Q9wZt7'));
});
