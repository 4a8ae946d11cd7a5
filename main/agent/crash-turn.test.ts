// kill -9 of `agenvoy chat` mid-stream and mid-tool: what was shown is stored, the database is sound, leftovers are
// cleaned up on the next start, and the next turn works.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { chatStorePath, openChatStore } from '../store';
import type { ScriptedServer } from './providers/testing/scripted-server';
import { openAiEvents, startOpenAiTestServer } from './providers/testing/openai-test-server';
import { writeScriptTool } from './testing/chat-fixture';

const bin = path.resolve(__dirname, '../../bin/agenvoy');
let server: ScriptedServer | undefined;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  await server?.close();
});

function setup() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-crash-'));
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ws-'));
  fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'desktop', 'settings.json'),
    JSON.stringify({ provider: 'openai', baseUrl: server!.baseUrl, model: 'm', apiKeyName: null }),
  );
  return { home, workspace };
}

function startChat(home: string, workspace: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: home };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.DISPLAY;
  const child = spawn(
    process.execPath,
    [bin, 'chat', ...args, '--json', '--approve', 'allow', '--workspace', workspace],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  const events: Array<{ at: number; event: Record<string, unknown> }> = [];
  const waiters: Array<() => void> = [];
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    events.push({ at: Date.now(), event: JSON.parse(line) });
    waiters.splice(0).forEach((w) => w());
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (predicate: () => boolean, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      if (Date.now() > deadline)
        throw new Error(`timed out; events: ${JSON.stringify(events.map((e) => e.event.type))}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  return { child, events, exited, waitFor };
}

describe('kill -9 mid-turn', () => {
  it('mid-stream: every delta shown before the last checkpoint is stored, and the next turn works', async () => {
    server = await startOpenAiTestServer();
    const { home, workspace } = setup();
    const words = Array.from({ length: 200 }, (_, i) => `w${i} `).join('');
    server.enqueue({
      events: openAiEvents([{ text: words }], { chunkSize: 6, omitDone: true, omitFinish: true }),
      delayMs: 40,
      hang: true,
    });
    const run = startChat(home, workspace, ['write a lot']);
    await run.waitFor(() => run.events.filter((e) => e.event.type === 'text.delta').length >= 12);
    await new Promise((r) => setTimeout(r, 500));
    const killedAt = Date.now();
    run.child.kill('SIGKILL');
    await run.exited;
    const shownBefore = run.events
      .filter((e) => e.event.type === 'text.delta' && e.at <= killedAt - 300)
      .map((e) => String(e.event.delta))
      .join('');
    const chatId = String(run.events[0]?.event.chatId);
    const store = openChatStore(chatStorePath(path.join(home, 'desktop')));
    expect(store.integrityCheck().ok).toBe(true);
    const assistant = store.messages.list(chatId).find((m) => m.message.role === 'assistant');
    const stored = JSON.stringify(assistant?.message);
    expect(shownBefore.length).toBeGreaterThan(20);
    expect(stored).toContain(shownBefore);
    store.close();

    server.enqueue({ events: openAiEvents([{ text: 'continuing' }]) });
    const next = startChat(home, workspace, ['go on', '--chat', chatId]);
    expect(await next.exited).toBe(0);
    const body = server.requests.at(-1)?.body;
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
    expect(body.messages[2].content).toContain(shownBefore);
    const after = openChatStore(chatStorePath(path.join(home, 'desktop')));
    expect(after.messages.list(chatId).find((m) => m.message.role === 'assistant')?.status).toBe(
      'interrupted',
    );
    after.close();
  }, 60_000);

  it('mid-tool: the next start kills the leftover process group, answers the call as interrupted, and works', async () => {
    server = await startOpenAiTestServer();
    const { home, workspace } = setup();
    // The script runs in the OS sandbox's own PID namespace, so its grandchild is watched by the heartbeat it
    // writes into the workspace, not by a pid (which would be the namespace's, not the host's).
    const beat = path.join(workspace, 'grandchild.beat');
    writeScriptTool(
      home,
      'slow',
      {
        name: 'slow_job',
        description: 'Run a slow job.\nUse when testing a crash mid-tool; nothing else does this.',
        parameters: { type: 'object', properties: {} },
      },
      `const { spawn } = require('child_process');
       spawn('sh', ['-c', 'while :; do date +%s%N > ${beat}; sleep 0.05; done'], { stdio: 'ignore' });
       setTimeout(() => {}, 300000);`,
    );
    server.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'f1', name: 'find_tools', args: '{"query":"select:script_slow_job"}' } },
        ]),
      },
      { events: openAiEvents([{ toolCall: { id: 's1', name: 'script_slow_job', args: '{}' } }]) },
    );
    const run = startChat(home, workspace, ['run the slow job']);
    await run.waitFor(() =>
      run.events.some((e) => e.event.type === 'call.started' && e.event.tool === 'script_slow_job'),
    );
    await run.waitFor(() => fs.existsSync(beat) && fs.readFileSync(beat, 'utf8').length > 0);
    run.child.kill('SIGKILL');
    await run.exited;
    const beatOf = () => fs.readFileSync(beat, 'utf8');
    // Whether the heartbeat changes within `ms` (a loaded machine may hold the loop back well past its 50 ms).
    const beatsWithin = async (ms: number) => {
      const before = beatOf();
      for (const until = Date.now() + ms; Date.now() < until;) {
        await new Promise((r) => setTimeout(r, 50));
        if (beatOf() !== before) return true;
      }
      return false;
    };
    // The crash left the tool's process tree running.
    expect(await beatsWithin(5000)).toBe(true);
    const chatId = String(run.events[0]?.event.chatId);

    server.enqueue({ events: openAiEvents([{ text: 'recovered' }]) });
    const next = startChat(home, workspace, ['what happened?', '--chat', chatId]);
    expect(await next.exited).toBe(0);
    // The next start killed it: the heartbeat has stopped.
    expect(await beatsWithin(1000)).toBe(false);
    const store = openChatStore(chatStorePath(path.join(home, 'desktop')));
    expect(store.integrityCheck().ok).toBe(true);
    expect(store.toolCalls.get(chatId, 's1')?.status).toBe('interrupted');
    expect(store.processGroups.live()).toEqual([]);
    store.close();
    const tool = server.requests
      .at(-1)
      ?.body.messages.find((m: { role: string; tool_call_id?: string }) => m.tool_call_id === 's1');
    expect(tool.content).toMatch(/interrupted/);
  }, 60_000);
});
