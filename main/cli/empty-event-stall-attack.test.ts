// A model server that answers a headless `agenvoy chat` with valid events that say nothing (empty deltas, role-only
// chunks) every few milliseconds, forever (docs/robustness.md, "A provider stream always ends"). Each reset the idle
// wait, so the turn never ended and the process never exited. Now the turn fails after the configured wait, keeps
// what streamed, and says which setting to raise.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAiChunk, startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { formatFrame } from '../agent/providers/testing/scripted-server';
import { runCli } from './testing/cli-harness';

let home: string;
let cwd: string;
let server: ScriptedServer;
beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-empty-home-'));
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-empty-ws-'));
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

describe('empty events without end in a headless chat', () => {
  it('the turn fails after the idle wait, keeps the partial answer, and names the setting', async () => {
    server.enqueue({
      async *raw() {
        yield formatFrame(openAiChunk({ role: 'assistant', content: 'The first half' }));
        for (let n = 0; ; n++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          yield formatFrame(openAiChunk(n % 2 ? { content: '' } : { role: 'assistant' }));
        }
      },
    });
    const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 15_000));
    const run = await Promise.race([
      runCli(['chat', 'hello', '--approve', 'deny', '--workspace', cwd], { home, cwd }),
      hung,
    ]);
    expect(run).not.toBe('hung');
    if (run === 'hung') return;
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('The first half');
    expect(run.stderr).toContain('the stream stalled: nothing arrived for 0.3 s');
    expect(run.stderr).toContain('limits.providerIdleSeconds');
    expect(server.requests).toHaveLength(1);
  }, 30_000);
});
