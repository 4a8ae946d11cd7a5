// What a hostile or broken model server says besides the answer, reaching the person through the CLI: model ids and
// error bodies carrying terminal control sequences (an OSC 52 that puts a command line on the clipboard) or bidi
// overrides, printed by `agenvoy setup` and `agenvoy doctor`; and an error message of megabytes in a JSON body (the
// cut applied to plain-text bodies did not apply to it), printed whole by `agenvoy chat` (docs/security.md,
// docs/robustness.md).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from './testing/cli-harness';
import { runCli } from './testing/cli-harness';

const OSC52 = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007';
const RLO = '\u202e';
const HUGE = 4 * 1024 * 1024;

let server: http.Server;
let origin: string;

beforeAll(async () => {
  // By path: /ids lists hostile ids among a clean one; /only lists only hostile ones; /refuse answers 401 with a
  // sequence in its message; /huge answers every request with a JSON error message of 4 MiB.
  server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/ids/')) {
      const data = [{ id: `evil${OSC52}` }, { id: `gpt-4o${RLO}lanif` }, { id: 'clean-model' }];
      return res.end(JSON.stringify({ data }));
    }
    if (url.startsWith('/only/')) return res.end(JSON.stringify({ data: [{ id: `x${OSC52}` }] }));
    if (url.startsWith('/refuse/'))
      return res.writeHead(401).end(JSON.stringify({ error: { message: `bad key ${OSC52}` } }));
    if (url.startsWith('/html/'))
      return res.writeHead(502, { 'content-type': 'text/html' }).end(`<h1>${OSC52}gateway</h1>`);
    // /serr and /aerr: a stream whose one event is an error with a message of 4 MiB (OpenAI's and Anthropic's shape).
    const sse = { 'content-type': 'text/event-stream' };
    if (url.startsWith('/serr/'))
      return res
        .writeHead(200, sse)
        .end(`data: ${JSON.stringify({ error: { message: 'y'.repeat(HUGE) } })}\n\n`);
    if (url.startsWith('/aerr/')) {
      const error = { type: 'error', error: { type: 'api_error', message: 'y'.repeat(HUGE) } };
      return res.writeHead(200, sse).end(`event: error\ndata: ${JSON.stringify(error)}\n\n`);
    }
    if (url.startsWith('/huge/'))
      return res.writeHead(400).end(JSON.stringify({ error: { message: 'y'.repeat(HUGE) } }));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let root: string;
let place: CliPlace;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-model-server-text-'));
  fs.mkdirSync(path.join(root, 'home'));
  fs.mkdirSync(path.join(root, 'ws'));
  place = {
    home: path.join(root, 'agenvoy'),
    cwd: path.join(root, 'ws'),
    env: { HOME: path.join(root, 'home') },
  };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const setup = (base: string, model = 'nope') =>
  runCli(
    ['setup', '--provider', 'openai', '--base-url', `${origin}/${base}/v1`, '--no-key', '--model', model],
    place,
  );

function writeSettings(base: string, provider = 'openai'): void {
  const baseUrl = provider === 'openai' ? `${origin}/${base}/v1` : `${origin}/${base}`;
  fs.mkdirSync(path.join(place.home, 'desktop'), { recursive: true });
  fs.writeFileSync(
    path.join(place.home, 'desktop', 'settings.json'),
    JSON.stringify({ provider, baseUrl, model: 'm', apiKeyName: null }),
  );
}

describe('model ids a server lists', () => {
  it('never lists an id with control or bidi characters: setup neither prints nor saves one', async () => {
    const run = await setup('ids');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('it lists: clean-model');
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stderr).not.toContain(RLO);
    const saved = await setup('ids', `evil${OSC52}`);
    expect(saved.code).toBe(1);
    expect(saved.stderr).not.toContain('\u001b');
    expect(fs.existsSync(path.join(place.home, 'desktop', 'settings.json'))).toBe(false);
  });

  it('the interactive picker numbers only the clean ids', async () => {
    const run = await runCli(['setup'], {
      ...place,
      interactive: true,
      stdin: `openai\n${origin}/ids/v1\nn\n1\n`,
    });
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stderr).not.toContain(RLO);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('model clean-model');
  });

  it('a list of only such ids lists no models', async () => {
    const run = await setup('only');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('lists no models');
    expect(run.stderr).not.toContain('\u001b');
  });
});

describe('error bodies a server sends', () => {
  it('setup shows control sequences in a refusal as escapes', async () => {
    for (const base of ['refuse', 'html']) {
      const run = await setup(base);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('connection failed');
      expect(run.stderr).not.toContain('\u001b');
      expect(run.stderr).toContain('\\u{001b}]52');
    }
  });

  it('doctor shows them as escapes too', async () => {
    writeSettings('refuse');
    const run = await runCli(['doctor'], place);
    expect(run.stdout).toContain('bad key');
    expect(run.stdout).not.toContain('\u001b');
    const json = await runCli(['doctor', '--json'], place);
    expect(json.stdout).not.toContain('\u001b');
  });

  it('a JSON error message of megabytes reaches the person cut, not whole', async () => {
    writeSettings('huge');
    const run = await runCli(['chat', 'hi', '--approve', 'deny', '--workspace', place.cwd], place);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('HTTP 400');
    expect(run.stderr).toContain('characters cut');
    expect(run.stderr.length).toBeLessThan(64 * 1024);
    const run2 = await setup('huge');
    expect(run2.stderr.length).toBeLessThan(64 * 1024);
  });

  it('so is an error event of megabytes in the stream, in either wire format', async () => {
    for (const [base, provider] of [
      ['serr', 'openai'],
      ['aerr', 'anthropic'],
    ] as const) {
      writeSettings(base, provider);
      const run = await runCli(['chat', 'hi', '--approve', 'deny', '--workspace', place.cwd], place);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('characters cut');
      expect(run.stderr.length).toBeLessThan(64 * 1024);
    }
    // A server error is retried with backoff (about 15 s a turn) before the turn fails.
  }, 90_000);
});
