// Canary secrets end to end, through browser mode's real stack (core, store, provider, WebSocket): a secret in an
// http_request host name that a DNS error lower-cases, a key a real run_command prints one character at a time,
// and URL-encoded, base64 and upper-cased echoes. None of it, in any form, may reach the model, the events, the
// app log or the chat database.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import { base64Cores } from '../core/secret-forms';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture } from './testing/web-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

const KEY = 'Zq7CanaryKEY9XpWm4';
const PW = 'p@ss w0rd/Kanary+Zz!';

// Every shape the canaries could leak in: as is, case-changed, percent-encoded (both hex cases, + for space),
// base64 and base64url at the three alignments.
const LEAKS = [KEY, PW].flatMap((value) => [
  value,
  value.toLowerCase(),
  value.toUpperCase(),
  encodeURIComponent(value),
  encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  new URLSearchParams({ v: value }).toString().slice(2),
  ...base64Cores(Buffer.from(value)),
]);

// Prints the canaries the way a real command might: the key slowly, then the other echoes.
const SLOW_JS = `
const fs = require('fs');
const [key, pw] = fs.readFileSync('canaries.txt', 'utf8').split('\\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  process.stdout.write('key: ');
  for (const c of key) { process.stdout.write(c); await sleep(40); }
  process.stdout.write('\\n');
  await sleep(300);
  console.log('url: ' + encodeURIComponent(pw));
  console.log('form: ' + new URLSearchParams({ p: pw }));
  console.log('b64: ' + Buffer.from('x' + key + 'y').toString('base64'));
  console.log('b64url: ' + Buffer.from('ab' + pw).toString('base64url'));
  console.error('upper: ' + key.toUpperCase());
})();
`;

let fixture: WebFixture;
let client: TestClient;
withoutKeychain();

beforeAll(async () => {
  fixture = await webFixture({
    prepare: (home, workspace) => {
      // No keychain in tests: the secrets live in the 0600 file fallback.
      fs.writeFileSync(path.join(home, '.secrets'), `CANARY_KEY=${KEY}\nCANARY_PW=${PW}\n`, { mode: 0o600 });
      fs.writeFileSync(path.join(workspace, 'canaries.txt'), `${KEY}\n${PW}\n`);
      fs.writeFileSync(path.join(workspace, 'slow.js'), SLOW_JS);
    },
  });
  client = await fixture.connect();
}, 60_000);

afterAll(async () => {
  await fixture?.close();
});

function expectNoLeak(where: string, text: string | Buffer): void {
  for (const leak of LEAKS) expect(text.includes(leak), `${where} holds ${JSON.stringify(leak)}`).toBe(false);
}

// Answers every approval dialog of this chat with "Allow once" while the turn runs.
function allowEverything(chatId: string): () => void {
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const dialog = await client.dialog('approval');
      if (stopped || dialog.chatId !== chatId) continue;
      for (const [index] of dialog.items.entries())
        await client.bridge.dialogs.answerApproval({ id: dialog.id, index, choice: { kind: 'allow_once' } });
    }
  })();
  return () => (stopped = true);
}

describe('redaction that holds, end to end', () => {
  it('keeps the canaries out of the model, the events, the app log and the database', async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'canaries' })).id;
    fixture.provider.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'f1', name: 'find_tools', args: '{"query":"select:http_request,run_command"}' } },
        ]),
      },
      {
        events: openAiEvents([
          {
            toolCall: {
              id: 'h1',
              name: 'http_request',
              args: JSON.stringify({
                url: 'https://${secret:CANARY_KEY}.invalid/',
                headers: { 'X-Pw': '${secret:CANARY_PW}' },
                timeout: 20,
              }),
            },
          },
        ]),
      },
      {
        events: openAiEvents([
          {
            toolCall: {
              id: 'r1',
              name: 'run_command',
              args: JSON.stringify({ command: `"${process.execPath}" slow.js` }),
            },
          },
        ]),
      },
      { events: openAiEvents([{ text: 'Done.' }]) },
    );
    const stop = allowEverything(chatId);
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'use the canaries' }));
    const finished = await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    stop();
    expect(finished.status).toBe('completed');

    // The DNS error came back to the model naming the key, not the host it lower-cased.
    const http = await client.chatEvent(
      'call.finished',
      (e) => e.chatId === chatId && e.tool === 'http_request',
    );
    expect(JSON.stringify(http.outcome)).toContain('[redacted:CANARY_KEY].invalid');
    const run = await client.chatEvent(
      'call.finished',
      (e) => e.chatId === chatId && e.tool === 'run_command',
    );
    expect(run.outcome).toMatchObject({ outcome: 'ok' });
    const runText = JSON.stringify(run.outcome);
    expect(runText).toContain('key: [redacted:CANARY_KEY]');
    expect(runText).toContain('upper: [redacted:CANARY_KEY]');
    expect(runText).toContain('url: [redacted:CANARY_PW]');

    // The live output streamed, but never a piece of the key: not one character per progress event.
    const progress = client.events
      .filter((e) => e.channel === 'chat.event')
      .map((e) => e.payload as { type: string; callId?: string; update?: { output?: string } })
      .filter((e) => e.type === 'call.progress' && e.update?.output)
      .map((e) => e.update?.output ?? '');
    expect(progress.length).toBeGreaterThan(1);
    const streamed = progress.join('').replace(/\[redacted:[A-Z_]+\]/g, '');
    expect(streamed).toContain('key: ');
    expect(streamed.toLowerCase()).not.toContain(KEY.slice(0, 2).toLowerCase());

    // The model, every frame the page got, the app log and every file of the store (WAL included).
    const model = JSON.stringify(fixture.provider.requests.map((request) => request.body));
    expect(model).toContain('[redacted:CANARY_KEY]');
    expectNoLeak('the model requests', model);
    expectNoLeak('the WebSocket frames', client.frames.join('\n'));
    // The app's own logger, as a tool's failure would reach it (a multi-line value, an Error, an encoded URL).
    fixture.host.core.log.warn('request failed', {
      error: new Error(`getaddrinfo ENOTFOUND ${KEY.toLowerCase()}.invalid`),
      url: `https://example.invalid/?pw=${encodeURIComponent(PW)}`,
      body: `line one\n${Buffer.from(`{"k":"${KEY}"}`).toString('base64')}\nline three`,
    });
    const desktop = path.join(fixture.home, 'desktop');
    const log = fs.readFileSync(path.join(desktop, 'logs', 'app.log'), 'utf8');
    expect(log).toContain('request failed error="getaddrinfo ENOTFOUND [redacted:CANARY_KEY].invalid"');
    expectNoLeak('app.log', log);
    const files = fs
      .readdirSync(desktop, { recursive: true })
      .map((file) => path.join(desktop, String(file)))
      .filter((file) => fs.statSync(file).isFile());
    expect(files.some((file) => file.endsWith('agenvoy.db'))).toBe(true);
    for (const file of files) expectNoLeak(file, fs.readFileSync(file));
  }, 90_000);
});
