// A headless `agenvoy chat` turn always ends: a provider that stalls before or during its answer, or streams a line
// without end, ends the turn with a clear message and a non-zero status (settings.json `limits`, set small here).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAiEvents, startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { runBin, runCli } from './testing/cli-harness';

let home: string;
let cwd: string;
let server: ScriptedServer;
beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-stall-home-'));
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-stall-ws-'));
  server = await startOpenAiTestServer();
  fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'desktop', 'settings.json'),
    JSON.stringify({
      provider: 'openai',
      baseUrl: server.baseUrl,
      model: 'scripted',
      apiKeyName: null,
      limits: { providerFirstByteSeconds: 0.3, providerIdleSeconds: 0.3 },
    }),
  );
});
afterEach(async () => {
  await server.close();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(cwd, { recursive: true, force: true });
});

const chat = ['chat', 'hello', '--approve', 'deny', '--workspace'];

describe('a stalled provider ends a headless turn', () => {
  it('the real bin/agenvoy exits 1 when the server never answers, after one retry', async () => {
    server.enqueue({ events: [], hang: true }, { silent: true }, { events: [], hang: true });
    const started = Date.now();
    const run = await runBin([...chat, cwd], { home, cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /\[chat [\w-]+: failed: OpenAI-compatible server: no answer within 0\.3 s of the request \(settings\.json limits\.providerFirstByteSeconds\)\]/,
    );
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('a stall mid-answer keeps what streamed, says so, and is not retried', async () => {
    server.enqueue({ events: openAiEvents([{ text: 'The first half of' }]).slice(0, 3), hang: true });
    const run = await runCli([...chat, cwd], { home, cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('The firs');
    expect(run.stderr).toContain(
      "failed: the model's stream was cut: OpenAI-compatible server: the stream stalled: nothing arrived for 0.3 s " +
        '(settings.json limits.providerIdleSeconds); the partial answer is kept]',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a line without end stops at the event cap with a message naming the setting', async () => {
    const piece = Buffer.alloc(1024 * 1024, 'x'.charCodeAt(0));
    server.enqueue({
      raw: function* () {
        yield 'data: ';
        for (let i = 0; i < 300; i++) yield piece;
      },
    });
    const run = await runCli([...chat, cwd, '--json'], { home, cwd });
    expect(run.code).toBe(1);
    const finished = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; status?: string; error?: string })
      .find((e) => e.type === 'turn.finished');
    expect(finished).toMatchObject({
      status: 'failed',
      error:
        'OpenAI-compatible server: one event of the stream passed 8 MiB (settings.json limits.providerEventBytes); ' +
        'the stream was stopped',
    });
  });
});
