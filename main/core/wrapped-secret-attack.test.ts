// Attack: a key that a line break or a join runs through. Before, the redactor matched each text as it stood, so a
// key echoed in MIME base64 (wrapped at 76 columns, the break falling inside the key's part), a key folded onto two
// lines by a command's output, or a key an MCP server cut across two text parts of its result reached the model,
// the history and the live output whole (docs/security.md, "Redaction"). Through the real dispatcher, http_request
// and a real HTTP server on 127.0.0.1, a real child process's live output, and a real stdio MCP server given the key
// in its environment (fixtures/split-secret-server.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { httpRequestTool } from '../../tools/builtin/http-request';
import { runCommandTool } from '../../tools/builtin/run-command';
import { defineTool } from '../../tools/sdk/types';
import type { LocalServer } from '../../tools/builtin/web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from '../../tools/builtin/web/testing/local-server';
import { fixture, mcpHarness, waitFor } from '../adapters/mcp/mcp-testing';
import { ProcessGroups } from '../process/process-group';
import { processPort } from '../process/process-port';
import type { CallEvent } from './dispatcher';
import type { CallOutcome } from './outcome';
import { base64Cores } from './secret-forms';
import { testCore } from './testing/test-core';

const KEY = 'sk-live-Q9wZt7Rb2KxM4pV8nL3c';

// Line breaks and the indentation after them taken out: the text as a reader puts it back together.
const unwrapped = (text: string): string => text.replace(/[\r\n]+[ \t]*/g, '');

// The runs of six characters of the key (or of its base64 at any alignment) left in `text` once unwrapped.
function leftOfKey(text: string, forms: string[] = [KEY]): string[] {
  const joined = unwrapped(text);
  const found: string[] = [];
  for (const form of forms)
    for (let i = 0; i + 6 <= form.length; i++)
      if (joined.includes(form.slice(i, i + 6))) found.push(form.slice(i, i + 6));
  return found;
}

function texts(outcome: CallOutcome): string {
  if (outcome.outcome !== 'ok') return JSON.stringify(outcome);
  const parts = outcome.content.map((part) => (part.type === 'image' ? '' : (part.text ?? '')));
  return `${outcome.text}\n${parts.join('')}\n${parts.join('\n')}`;
}

const made: string[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a key that a line break runs through', () => {
  it('MIME base64 of a mail that quotes the key, wrapped at 76 columns, the break anywhere in the key', async () => {
    const cores = base64Cores(Buffer.from(KEY)).slice(0, 6);
    let splitInside = 0;
    for (let pad = 0; pad < 60; pad += 3) {
      let raw = '';
      const server: LocalServer = await startLocalServer((req, res) => {
        const quoted = `${'x'.repeat(pad)}Authorization: ${String(req.headers['x-api-key'])}\r\nthe rest of the request`;
        const body = Buffer.from(quoted).toString('base64').replace(/.{76}/g, '$&\r\n');
        raw = `Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n${body}`;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.end(raw);
      });
      closers.push(() => server.close());
      const core = testCore([httpRequestTool], {
        services: { web: LOOPBACK_ALLOWED },
        getSecret: async (name) => (name === 'MAIL_KEY' ? KEY : undefined),
      });
      made.push(core.dir);
      // The app's secret store adds every value it hands out to the redactor (main/secrets/).
      core.redactor.add('MAIL_KEY', KEY);
      const outcome = await core.dispatcher.dispatch(
        {
          id: `m${pad}`,
          name: 'http_request',
          args: { url: `${server.url}/debug/mail`, headers: { 'X-Api-Key': '${secret:MAIL_KEY}' } },
        },
        { chatId: 'mime', workspace: core.dir },
      );
      expect(outcome.outcome).toBe('ok');
      // The server did send the key: its base64 is in the body once the lines are joined.
      expect(leftOfKey(raw, cores).length).toBeGreaterThan(0);
      if (!cores.some((core) => raw.includes(core))) splitInside++;
      expect(leftOfKey(texts(outcome), cores), `${pad} characters before it`).toEqual([]);
    }
    // Most of these placed a line break inside the key's base64 (the case that leaked).
    expect(splitInside).toBeGreaterThanOrEqual(5);
  });

  it('folded onto lines by a command: neither the live output nor the result shows it', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-wrap-'));
    made.push(workspace);
    fs.writeFileSync(path.join(workspace, 'key.txt'), KEY);
    // Prints the key broken after `at` characters, the second line indented, each line a while after the last (so
    // the break ends what the stream has seen so far); then a line whose last letters begin the key's forms.
    fs.writeFileSync(
      path.join(workspace, 'fold.js'),
      `const key = require('fs').readFileSync('key.txt', 'utf8');
       const at = Number(process.argv[2]);
       const lines = ['token: ' + key.slice(0, at) + '\\n', '    ' + key.slice(at) + '\\n', 'done, 3 files\\n'];
       const next = () => { if (lines.length) { process.stdout.write(lines.shift()); setTimeout(next, 150); } };
       next();`,
    );
    const groups = new ProcessGroups();
    closers.push(() => groups.killAll());
    for (const at of [1, 2, 3, 9, 20, KEY.length - 3, KEY.length - 1]) {
      const core = testCore([runCommandTool]);
      made.push(core.dir);
      core.redactor.add('LIVE_KEY', KEY);
      const events: CallEvent[] = [];
      core.dispatcher.on((event) => events.push(event));
      const outcome = await core.dispatcher.dispatch(
        { id: `f${at}`, name: 'run_command', args: { command: `"${process.execPath}" fold.js ${at}` } },
        { chatId: 'fold', workspace, services: { processes: processPort(groups) } },
      );
      expect(outcome.outcome).toBe('ok');
      const live = events.flatMap((e) => (e.type === 'call.progress' ? [e.update.output ?? ''] : []));
      expect(live.length).toBeGreaterThan(0);
      // A break after the key's first one or two characters lets those out live (fewer than three units are not
      // held back at a line's end), but never the rest.
      const shownLive = live.join('');
      expect(leftOfKey(shownLive, [KEY.slice(Math.min(at, 2))]), `live, broken after ${at}`).toEqual([]);
      expect(shownLive).toContain('[redacted:LIVE_KEY]');
      expect(shownLive).toContain('done, 3 files\n');
      expect(leftOfKey(texts(outcome)), `result, broken after ${at}`).toEqual([]);
    }
  });
});

// A debug echo returning the key it was sent in the shapes honest tools print it (each leaked whole or nearly so).
const b64 = (text: string, encoding: BufferEncoding = 'utf8'): string =>
  Buffer.from(text, encoding).toString('base64');
const SHAPES: Array<[string, (key: string) => string, string[]]> = [
  [
    'MIME base64 inside a JSON string',
    (k) => JSON.stringify({ raw: b64(`xAuthorization: ${k}`).replace(/.{16}/g, '$&\r\n') }),
    base64Cores(Buffer.from(KEY)),
  ],
  [
    'base64 in a quoted mail ("> ")',
    (k) => b64(`Authorization: ${k}`).replace(/.{16}/g, '$&\n> '),
    base64Cores(Buffer.from(KEY)),
  ],
  [
    'quoted-printable with a soft break inside the key',
    (k) => `key: ${k.slice(0, 9)}=\r\n${k.slice(9)}\r\n`,
    [KEY],
  ],
  [
    'grep --color around a match',
    (k) => `config:3:token=${k.slice(0, 8)}\x1b[01;31m\x1b[K${k.slice(8, 14)}\x1b[m\x1b[K${k.slice(14)}`,
    [KEY],
  ],
  ['a key shortened with "..."', (k) => `using key ${k.slice(0, -3)}... (rejected)`, [KEY]],
  ['a key shortened with "…"', (k) => `using key ${k.slice(0, -3)}\u2026 (rejected)`, [KEY]],
  ['a key masked with "***"', (k) => `key ${k.slice(0, 10)}***${k.slice(-4)}`, [KEY]],
  ['a key shortened with ".."', (k) => `using key ${k.slice(0, -3)}.. (rejected)`, [KEY]],
  ['a key shortened with " (truncated)"', (k) => `using key ${k.slice(0, -3)} (truncated)`, [KEY]],
  ['a key masked with bullets', (k) => `key ${k.slice(0, 12)}\u2022\u2022\u2022\u2022`, [KEY]],
  [
    'base64 of UTF-16LE (PowerShell -EncodedCommand)',
    (k) => `powershell -enc ${b64(`$env:TOKEN='${k}'`, 'utf16le')}`,
    base64Cores(Buffer.from(KEY, 'utf16le')),
  ],
  [
    'a .dockerconfigjson (base64 of JSON holding base64(user:key))',
    (k) => b64(JSON.stringify({ auths: { 'r.io': { auth: b64(`bot:${k}`) } } })),
    [KEY],
  ],
];

it.each(SHAPES)('a key echoed back as %s is redacted', async (_name, shape, forms) => {
  const server: LocalServer = await startLocalServer((req, res) => {
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end(`debug echo\n${shape(String(req.headers['x-api-key']))}\nend`);
  });
  closers.push(() => server.close());
  const core = testCore([httpRequestTool], {
    services: { web: LOOPBACK_ALLOWED },
    getSecret: async (name) => (name === 'ECHO_KEY' ? KEY : undefined),
  });
  made.push(core.dir);
  core.redactor.add('ECHO_KEY', KEY);
  const outcome = await core.dispatcher.dispatch(
    {
      id: 's1',
      name: 'http_request',
      args: { url: `${server.url}/echo`, headers: { 'X-Api-Key': '${secret:ECHO_KEY}' } },
    },
    { chatId: 'shape', workspace: core.dir },
  );
  expect(outcome.outcome).toBe('ok');
  // eslint-disable-next-line no-control-regex -- colour codes are what it takes out
  const shown = texts(outcome).replace(/\\r\\n|\x1b\[[0-9;]*[A-Za-z]/g, '');
  expect(shown).toContain('[redacted:ECHO_KEY]');
  expect(leftOfKey(shown.replace(/=\n/g, '\n'), forms)).toEqual([]);
});

// fixtures/split-secret-server.mjs, given the key in its environment as mcp.json's `${secret:NAME}` gives it, ready.
async function splitServer() {
  const h = mcpHarness(
    {
      servers: {
        split: {
          command: process.execPath,
          args: [fixture('split-secret-server.mjs')],
          env: { TOKEN: '${secret:SVC_TOKEN}' },
          trust: ['show_token'],
        },
      },
    },
    { getSecret: async (name) => (name === 'SVC_TOKEN' ? KEY : undefined) },
  );
  closers.push(() => h.dispose());
  await h.manager.start();
  await waitFor(() => h.state('split')?.status === 'ready');
  return h;
}

describe('a key an MCP server cuts across the parts of its result', () => {
  it('never reaches the model, whichever part it starts in', async () => {
    const h = await splitServer();
    for (const at of [1, 3, 10, KEY.length - 1]) {
      for (const resource of [false, true]) {
        const outcome = await h.dispatch('mcp__split__show_token', { at, resource });
        expect(outcome.outcome, JSON.stringify(outcome)).toBe('ok');
        // What the server sent, as the model reads it, holds no run of the key; the mark says where it was.
        expect(leftOfKey(texts(outcome)), `cut after ${at}${resource ? ', into a resource' : ''}`).toEqual(
          [],
        );
        expect(texts(outcome)).toContain('[redacted:SVC_TOKEN]');
        expect(texts(outcome)).toContain('(end of token)');
        expect(texts(outcome)).toContain('another part');
      }
    }
  });
});

// An AWS-style key holds "/", "+" and "=", which URL builders and form decoders each treat their own way.
const AWS_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY=';
const AWS_SHAPES: Array<[string, (key: string) => string]> = [
  ['Python\'s urllib.parse.quote (keeps "/")', (k) => encodeURIComponent(k).replace(/%2F/g, '/')],
  ['a form decoder reading "+" as a space', (k) => k.replace(/\+/g, ' ')],
  ['"/" alone escaped', (k) => k.replace(/\//g, '%2F')],
];

it.each(AWS_SHAPES)('an AWS-style key echoed back as %s is redacted', async (_name, shape) => {
  const server: LocalServer = await startLocalServer((req, res) => {
    if (req.url === '/login') {
      res.statusCode = 302;
      res.setHeader('location', `/landing?session=${shape(AWS_KEY)}&next=1`);
      return res.end();
    }
    res.end(`you sent: ${shape(AWS_KEY)}&next=1`);
  });
  closers.push(() => server.close());
  // The request carries the key itself (so http_request scrubs its own report first, as it does for errors).
  const core = testCore([httpRequestTool], {
    services: { web: LOOPBACK_ALLOWED },
    getSecret: async (name) => (name === 'AWS_SECRET' ? AWS_KEY : undefined),
  });
  made.push(core.dir);
  core.redactor.add('AWS_SECRET', AWS_KEY);
  const outcome = await core.dispatcher.dispatch(
    {
      id: 'a1',
      name: 'http_request',
      args: { url: `${server.url}/login`, headers: { 'X-Api-Key': '${secret:AWS_SECRET}' } },
    },
    { chatId: 'aws', workspace: core.dir },
  );
  const shown = JSON.stringify(outcome);
  expect(shown).toContain('session=[redacted:AWS_SECRET]&next=1');
  expect(shown).toContain('you sent: [redacted:AWS_SECRET]&next=1');
  expect(leftOfKey(shown, ['wJalrXUtnFEMI', 'K7MDENG', 'bPxRfiCYEXAMPLEKEY'])).toEqual([]);
});

describe('a key written in pieces or over lines where no result carries it', () => {
  it("a stdio MCP server's stderr, which the log keeps line by line", async () => {
    const h = await splitServer();
    expect((await h.dispatch('mcp__split__show_token', { stderr: true })).outcome).toBe('ok');
    const log = await waitFor(() => {
      const text = h.core.readLog();
      return text.includes('sent') ? text : null;
    });
    expect(log).toContain('mcp server stderr');
    expect(log).toContain('[redacted:SVC_TOKEN]');
    const cores = base64Cores(Buffer.from(KEY)).slice(0, 6);
    const lines = log.split('\n').filter((line) => line.includes('mcp server stderr'));
    // Each line's text as the log quotes it, joined as a reader of the log would.
    expect(
      leftOfKey(lines.map((line) => /line="?([^"\s]*)/.exec(line)?.[1] ?? '').join('\n'), cores),
    ).toEqual([]);
  });

  it("a background tool's output in two pieces, as its task's output tail shows it", async () => {
    const tool = defineTool({
      name: 'chunky_task',
      description: 'Writes its output in pieces.',
      parameters: { type: 'object', properties: {} },
      flags: { background: true, alwaysAllow: true },
      handler: async (_args, ctx) => {
        ctx.progress({ output: `token=${KEY.slice(0, 10)}` });
        await new Promise((resolve) => setTimeout(resolve, 100));
        ctx.progress({ output: `${KEY.slice(10)}\n` });
        return 'done';
      },
    });
    const core = testCore([tool]);
    made.push(core.dir);
    core.redactor.add('TASK_KEY', KEY);
    const tails: string[] = [];
    core.tasks.onChange((task) => tails.push(task.outputTail));
    const started = await core.dispatcher.dispatch(
      { id: 't1', name: 'chunky_task', args: {} },
      { chatId: 'task', workspace: core.dir },
    );
    expect(started.outcome).toBe('ok');
    const id = (started as { data?: { taskId?: string } }).data?.taskId ?? '';
    await waitFor(() => core.tasks.get(id)?.status === 'succeeded');
    expect(core.tasks.get(id)?.outputTail).toBe('token=[redacted:TASK_KEY]\n');
    for (const tail of tails) expect(leftOfKey(tail)).toEqual([]);
  });
});

describe('a key whose last character stands alone after the break (found by review: one unit after a join was never matched)', () => {
  const head = `token: ${KEY.slice(0, -1)}`;
  const last = KEY.slice(-1);

  it('at the end of a text, of a part, and of a piece of live output', () => {
    const core = testCore([]);
    made.push(core.dir);
    core.redactor.add('END_KEY', KEY);
    expect(leftOfKey(core.redactor.redact(`${head}\n${last}`))).toEqual([]);
    const outcome = core.redactor.redactOutcome({
      outcome: 'ok',
      text: `${head}\n${last}`,
      content: [
        { type: 'text', text: head },
        { type: 'text', text: last },
      ],
      durationMs: 1,
    });
    expect(leftOfKey(texts(outcome))).toEqual([]);
    const stream = core.redactor.stream();
    const shown = [
      stream.push(`${head}\n`),
      stream.push(last),
      stream.push('\nnext line\n'),
      stream.end(),
    ].join('');
    expect(leftOfKey(shown)).toEqual([]);
    expect(shown).toContain('next line');
  });
});

it('an ellipsis scrubs the piece of a key before it, never an ordinary word after it', () => {
  const core = testCore([]);
  made.push(core.dir);
  core.redactor.add('PW', 'hunter2password');
  expect(core.redactor.redact('const all = { ...passwordCount, ...rest };')).toBe(
    'const all = { ...passwordCount, ...rest };',
  );
  expect(core.redactor.redact('login with hunter2pa... failed')).toBe('login with [redacted:PW]... failed');
});
