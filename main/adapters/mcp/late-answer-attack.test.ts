// An MCP server that finishes a call the person cancelled (docs/dispatch.md, "MCP requests"): over HTTP the server
// is not ours to stop, so a cancel is only a request; over stdio it may answer within its grace before it would be
// restarted. The person was told "cancelled" and nothing more; when the server's answer then shows the work went on
// and finished, that must reach them: the server's view and the log say so. Real children speaking Streamable HTTP
// (fixtures/late-http-server.mjs) and stdio (fixtures/stubborn-server.mjs, its `late` tool) through McpManager.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, mcpHarness, waitFor } from './mcp-testing';

let harness: ReturnType<typeof mcpHarness> | null = null;
let child: ChildProcess | null = null;

afterEach(async () => {
  child?.kill('SIGKILL');
  child = null;
  await harness?.dispose();
  harness = null;
});

async function startLateServer(): Promise<string> {
  const started = spawn(process.execPath, [fixture('late-http-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child = started;
  const port = await new Promise<string>((resolve, reject) => {
    let seen = '';
    started.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /port (\d+)/.exec(seen);
      if (match) resolve(match[1] as string);
    });
    started.once('exit', (code) => reject(new Error(`late server exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

describe('an HTTP server that answers a cancelled call anyway', () => {
  it('the call ends cancelled at once; when the answer comes, the server view and the log say the work went on', async () => {
    harness = mcpHarness({ servers: { web: { url: await startLateServer() } } });
    const h = harness;
    await h.manager.start();
    expect(h.state('web')).toMatchObject({ status: 'ready', transport: 'streamable-http' });
    const stop = new AbortController();
    const pending = h.dispatch('mcp__web__late', { ms: 1500 }, stop.signal);
    setTimeout(() => stop.abort(), 200);
    expect(await pending).toMatchObject({ outcome: 'cancelled' });
    const view = () => h.manager.states().find((entry) => entry.name === 'web');
    const warning = await waitFor(() => view()?.warnings.find((line) => /cancelled/.test(line)), 5000);
    expect(warning).toMatch(/finished a call after it was cancelled/);
    expect(warning).toMatch(/over HTTP a cancel can only be asked for/);
    expect(h.core.readLog()).toMatch(/finished a cancelled call/);
    // The server is otherwise fine: nothing is restarted over HTTP.
    expect(h.state('web')).toMatchObject({ status: 'ready' });
  });
});

describe('a stdio server that answers a cancelled call with its result within the grace', () => {
  it('the call ends cancelled at once; the answer is reported as work that went on, and the server is not restarted', async () => {
    harness = mcpHarness({
      servers: { stub: { command: process.execPath, args: [fixture('stubborn-server.mjs')] } },
    });
    const h = harness;
    await h.manager.start();
    expect(h.state('stub')).toMatchObject({ status: 'ready' });
    const pid = h.manager.pid('stub');
    const stop = new AbortController();
    const pending = h.dispatch('mcp__stub__late', { ms: 300 }, stop.signal);
    setTimeout(() => stop.abort(), 200);
    expect(await pending).toMatchObject({ outcome: 'cancelled' });
    const view = () => h.manager.states().find((entry) => entry.name === 'stub');
    const warning = await waitFor(() => view()?.warnings.find((line) => /cancelled/.test(line)), 5000);
    expect(warning).toMatch(
      /finished a call after it was cancelled \(its result came 0\.3 s after the cancel\)/,
    );
    expect(warning).toMatch(/its result came before it could be stopped/);
    expect(h.core.readLog()).toMatch(/finished a cancelled call/);
    // It answered within its grace: the same process serves on.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(h.state('stub')).toMatchObject({ status: 'ready' });
    expect(h.manager.pid('stub')).toBe(pid);
  });
});
