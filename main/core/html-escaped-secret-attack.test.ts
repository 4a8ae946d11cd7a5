// Attack: a server echoes the key it was sent back in an HTML or XML page (an error page quoting the rejected
// value), escaped as HTML escapers write it. The key's characters `& < > " '` then show as entities, a shape the
// redactor did not know, so the whole key reached the model in the tool's result. Through the real dispatcher,
// http_request and a real HTTP server on 127.0.0.1 (docs/security.md, "Redaction").
import { afterEach, expect, it } from 'vitest';
import { httpRequestTool } from '../../tools/builtin/http-request';
import type { LocalServer } from '../../tools/builtin/web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from '../../tools/builtin/web/testing/local-server';
import { testCore } from './testing/test-core';

const KEY = `Sh0p&Key<9>"Zq'7xW`;

// How common escapers write the key: named entities with each spelling of the apostrophe (escape-html, Python's
// html.escape, PHP's htmlspecialchars, XML), Go's html.EscapeString, and text-node escaping that leaves quotes.
const ESCAPERS: Array<[string, (text: string) => string]> = [
  ['escape-html', (t) => named(t, '&#39;')],
  ['Python html.escape', (t) => named(t, '&#x27;')],
  ['PHP htmlspecialchars', (t) => named(t, '&#039;')],
  ['XML', (t) => named(t, '&apos;')],
  ['Go html.EscapeString', (t) => amp(t).replace(/"/g, '&#34;').replace(/'/g, '&#39;')],
  ['text node', (t) => amp(t)],
];

function amp(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
function named(text: string, apostrophe: string): string {
  return amp(text).replace(/"/g, '&quot;').replace(/'/g, apostrophe);
}

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

it.each(ESCAPERS)('a key echoed back escaped as %s is redacted in the result', async (_name, escape) => {
  server = await startLocalServer((_req, res, body) => {
    res.statusCode = 400;
    res.setHeader('content-type', 'text/html');
    res.end(`<html><body><p>Invalid key: ${escape(body)}</p></body></html>`);
  });
  const core = testCore([httpRequestTool], {
    services: { web: LOOPBACK_ALLOWED },
    getSecret: async (name) => (name === 'SHOP_KEY' ? KEY : undefined),
  });
  // As the app does for every stored key (docs/secrets.md): the redactor knows it before any tool runs.
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
    { chatId: 'html', workspace: core.dir },
  );
  const shown = JSON.stringify(outcome);
  expect(shown).toContain('Invalid key: [redacted:SHOP_KEY]');
  expect(shown).not.toContain('Sh0p');
  expect(shown).not.toContain('Zq');
});
