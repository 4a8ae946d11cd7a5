// A helper that left its process group (setsid) outliving a crash of the app (docs/dispatch.md, "Process-tree kill").
// The next start kills the groups a crashed run recorded, and a setsid helper is in none of them: a stdio MCP server
// (or an unconfined command) that had started one left it running for good after a kill -9 of the app, though it
// carries the run's mark that quitting, an exit and a cancel sweep. The next start reads the mark from each recorded
// group it kills and sweeps that too. kill -9 of a real `agenvoy chat`, then a second one on the same home.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../agent/providers/testing/scripted-server';
import { openAiEvents, startOpenAiTestServer } from '../../agent/providers/testing/openai-test-server';
import { fixture, waitFor } from './mcp-testing';
import { processAlive } from '../../process/testing/process-alive';

const bin = path.resolve(__dirname, '../../../bin/agenvoy');
let server: ScriptedServer | undefined;
const children: ChildProcess[] = [];
const made: string[] = [];
let helpers: number[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const pid of helpers) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  helpers = [];
  await server?.close();
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function pids(file: string): number[] {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function chat(
  home: string,
  workspace: string,
  text: string,
): { child: ChildProcess; exited: Promise<unknown> } {
  const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: home };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.DISPLAY;
  const child = spawn(process.execPath, [bin, 'chat', text, '--json', '--workspace', workspace], {
    env,
    stdio: 'ignore',
  });
  children.push(child);
  return { child, exited: new Promise((resolve) => child.on('exit', resolve)) };
}

describe.skipIf(process.platform !== 'linux')('a setsid helper of a stdio MCP server after kill -9', () => {
  it('dies when the next start kills the server it came from', async () => {
    server = await startOpenAiTestServer();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-crash-home-'));
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-crash-ws-'));
    made.push(home, workspace);
    fs.mkdirSync(path.join(home, 'desktop'));
    fs.writeFileSync(
      path.join(home, 'desktop', 'settings.json'),
      JSON.stringify({ provider: 'openai', baseUrl: server.baseUrl, model: 'm', apiKeyName: null }),
    );
    // The server starts a helper in a session of its own, then becomes the server. In a file of its own: mcp.json
    // would expand the shell's $ words.
    const pidFile = path.join(home, 'helpers.pid');
    const script = path.join(home, 'server.sh');
    fs.writeFileSync(
      script,
      `setsid sh -c 'echo $$ >> "${pidFile}"; while :; do sleep 0.2; done' </dev/null >/dev/null 2>&1 &\n` +
        `exec "${process.execPath}" "${fixture('stubborn-server.mjs')}"\n`,
    );
    fs.writeFileSync(
      path.join(home, 'mcp.json'),
      JSON.stringify({ servers: { stub: { command: '/bin/sh', args: [script] } } }),
    );

    // The first chat hangs in its model request with the server connected, and is killed there.
    server.enqueue({
      events: openAiEvents([{ text: 'thinking' }], { omitDone: true, omitFinish: true }),
      hang: true,
    });
    const first = chat(home, workspace, 'hello');
    const [helper] = await waitFor(() => (pids(pidFile).length > 0 ? pids(pidFile) : undefined), 20_000);
    helpers = [helper as number];
    await waitFor(() => server?.requests.length ?? 0, 20_000);
    first.child.kill('SIGKILL');
    await first.exited;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(processAlive(helper as number)).toBe(true);

    server.enqueue({ events: openAiEvents([{ text: 'back' }]) });
    const second = chat(home, workspace, 'again');
    await second.exited;
    helpers = pids(pidFile);
    await waitFor(() => !processAlive(helper as number), 3000);
  }, 60_000);
});
