// Attack: a server or tool echoes the key it was given as hex (a debug dump of the request: Node's
// `toString('hex')`, Python's `.hex()`, upper-case from C's `%02X`), or as UTF-16 text (a Windows program's output,
// PowerShell's default file encoding) that the app reads as UTF-8, so a NUL sits beside each of the key's
// characters. Neither was a form the redactor knew, so the whole key reached the model. Through the real
// dispatcher, http_request and a real HTTP server on 127.0.0.1, and a real Python script tool with a declared secret
// in the real core (docs/security.md, "Redaction").
import { afterEach, expect, it } from 'vitest';
import { httpRequestTool } from '../../tools/builtin/http-request';
import type { LocalServer } from '../../tools/builtin/web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from '../../tools/builtin/web/testing/local-server';
import { testCore } from './testing/test-core';
import { runSecretScript } from '../adapters/script/testing/secret-script-core';

const KEY = 'sk-live-51HcAnaRy0987654321zYx';

// No run of the key long enough to use is left, in any of the shapes echoed.
function expectNoKey(shown: string): void {
  const plain = shown.replace(/\\u0000/g, '').toLowerCase();
  expect(plain).not.toContain('canary0987');
  expect(plain).not.toContain(Buffer.from('AnaRy0987').toString('hex').toLowerCase());
}

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

it.each([
  ['lower-case hex', (key: string) => `request body: ${Buffer.from(key).toString('hex')}\n`],
  ['upper-case hex', (key: string) => `BODY=${Buffer.from(key).toString('hex').toUpperCase()}\n`],
])('a key a server echoes back as %s is redacted in the result', async (_name, echo) => {
  server = await startLocalServer((_req, res, body) => {
    res.statusCode = 400;
    res.setHeader('content-type', 'text/plain');
    res.end(echo(body));
  });
  const core = testCore([httpRequestTool], {
    services: { web: LOOPBACK_ALLOWED },
    getSecret: async (name) => (name === 'SHOP_KEY' ? KEY : undefined),
  });
  core.redactor.add('SHOP_KEY', KEY);
  const outcome = await core.dispatcher.dispatch(
    {
      id: 'h1',
      name: 'http_request',
      args: {
        url: `${server.url}/login`,
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: '${secret:SHOP_KEY}',
      },
    },
    { chatId: 'hex', workspace: core.dir },
  );
  const shown = JSON.stringify(outcome);
  expect(shown).toContain('[redacted:SHOP_KEY]');
  expectNoKey(shown);
});

const SCRIPT = `import os, sys
key = os.environ["SHOP_KEY"]
out = sys.stdout.buffer
out.write(b"hex: " + key.encode().hex().encode() + b"\\n")
out.write(b"HEX: " + key.encode().hex().upper().encode() + b"\\n")
out.write(b"utf-16le: " + (key + "\\n").encode("utf-16-le") + b"\\n")
out.write(b"utf-16be: " + (key + "\\n").encode("utf-16-be") + b"\\n")
out.write(b"utf-16: " + (key + "\\n").encode("utf-16") + b"\\n")
`;

it('a key a script tool prints as hex or UTF-16 is redacted in the result', async () => {
  const outcome = await runSecretScript({ name: 'shop_debug', key: 'SHOP_KEY', value: KEY, script: SCRIPT });
  expect(outcome?.outcome).toBe('ok');
  const text = outcome?.outcome === 'ok' ? outcome.text : '';
  // Each of the five lines has its key scrubbed.
  expect(text.match(/\[redacted:SHOP_KEY\]/g)?.length).toBe(5);
  expectNoKey(JSON.stringify(outcome));
}, 30_000);
