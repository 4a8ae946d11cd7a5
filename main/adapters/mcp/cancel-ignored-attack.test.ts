// A stdio MCP server that ignores notifications/cancelled (docs/security.md, "A hostile MCP server"; docs/dispatch.md,
// "MCP requests"): a real child (fixtures/stubborn-server.mjs) through McpManager and the real dispatcher. Its tool
// starts a worker that writes to a file every 20 ms and never stops by itself; after a cancel or a timeout the user
// is told the call stopped, so the work must really stop: the file stops growing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeText } from '../../core/outcome';
const CANCEL_GRACE_MS = 1000;
import { fixture, mcpHarness, waitFor } from './mcp-testing';
import type { McpServerView } from './server-state';

type Harness = ReturnType<typeof mcpHarness>;
let harness: Harness | null = null;

afterEach(async () => {
  await harness?.dispose();
  harness = null;
});

async function start(extra: Record<string, unknown> = {}): Promise<{ h: Harness; views: McpServerView[] }> {
  harness = mcpHarness({
    servers: { stub: { command: process.execPath, args: [fixture('stubborn-server.mjs')], ...extra } },
  });
  const views: McpServerView[] = [];
  harness.manager.onChange((view) => views.push(view));
  await harness.manager.start();
  expect(harness.state('stub')).toMatchObject({ status: 'ready' });
  return { h: harness, views };
}

const size = (file: string): number => (fs.existsSync(file) ? fs.statSync(file).size : 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `file` has not grown for 400 ms (20 writes of the worker); rejects after `withinMs`. */
async function stopsGrowing(file: string, withinMs: number): Promise<number> {
  const started = Date.now();
  let last = size(file);
  for (;;) {
    await sleep(400);
    const now = size(file);
    if (now === last) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`${file} still grows after ${withinMs} ms`);
    last = now;
  }
}

describe('a stdio server that ignores notifications/cancelled', () => {
  it.each([
    ['cancelled by the user', {}, 'cancelled'],
    ['cut at its timeout', { timeout: 1 }, 'timed_out'],
  ] as const)(
    '%s: its work stops within the grace, the server restarts, and the user sees why',
    async (_, extra, outcome) => {
      const { h, views } = await start(extra);
      const file = path.join(h.home, 'work.log');
      const pid = h.manager.pid('stub');
      const stop = new AbortController();
      const pending = h.dispatch('mcp__stub__work', { file }, stop.signal);
      await waitFor(() => size(file) > 0);
      if (outcome === 'cancelled') stop.abort();
      // The call settles at once, as before: the person is not kept waiting for the server.
      expect(await pending).toMatchObject({ outcome });
      const stoppedAt = Date.now();
      // The worker was still writing when the call ended; now it stops: the server's tree is killed after the grace.
      const quiet = await stopsGrowing(file, CANCEL_GRACE_MS + 3000);
      expect(quiet).toBeLessThan(CANCEL_GRACE_MS + 2500);
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(CANCEL_GRACE_MS - 100);
      // The person sees why the server went away, and it comes back by itself with the same tools.
      const why = views.find((view) => view.state.status === 'reconnecting');
      expect(why?.state).toMatchObject({
        reason: expect.stringMatching(/restarted to stop a cancelled call/),
      });
      await waitFor(() => h.state('stub')?.status === 'ready' && h.manager.pid('stub') !== pid, 5000);
      expect(outcomeText(await h.dispatch('mcp__stub__wait', { ms: 0 }))).toBe('waited');
      expect(h.core.readLog()).toMatch(/restarted to stop a cancelled call/);
    },
  );

  it('another call in flight on that server fails at once, saying why, instead of hanging to its limit', async () => {
    const { h } = await start({ timeout: 30 });
    const file = path.join(h.home, 'work.log');
    const other = h.dispatch('mcp__stub__wait', { ms: 20_000 });
    const stop = new AbortController();
    const pending = h.dispatch('mcp__stub__work', { file }, stop.signal);
    await waitFor(() => size(file) > 0);
    stop.abort();
    expect(await pending).toMatchObject({ outcome: 'cancelled' });
    const started = Date.now();
    const outcome = await other;
    expect(Date.now() - started).toBeLessThan(CANCEL_GRACE_MS + 3000);
    expect(outcome).toMatchObject({ outcome: 'error', code: 'mcp_server_disconnected' });
    expect(outcomeText(outcome)).toMatch(
      /^MCP server "stub" was restarted to stop a cancelled call .* during the call; the call did not finish/,
    );
  });

  it('repeated cancels restart it each time without backing off or giving up', async () => {
    const { h, views } = await start();
    const restarts = () => views.filter((view) => view.state.status === 'reconnecting');
    for (let round = 0; round < 3; round++) {
      const file = path.join(h.home, `work-${round}.log`);
      const stop = new AbortController();
      const pending = h.dispatch('mcp__stub__work', { file }, stop.signal);
      await waitFor(() => size(file) > 0);
      stop.abort();
      expect(await pending).toMatchObject({ outcome: 'cancelled' });
      await waitFor(() => restarts().length === round + 1, CANCEL_GRACE_MS + 3000);
      // Not the growing backoff of a crash loop: the first attempt, at once.
      expect(restarts().at(-1)?.state).toMatchObject({ attempt: 1 });
      await waitFor(() => h.state('stub')?.status === 'ready', 2500);
    }
  });
});

describe('a stdio server whose entry says "restartOnCancel": false', () => {
  it('is only asked to stop: it keeps running (and its state), and its work is not stopped for it', async () => {
    const { h, views } = await start({ restartOnCancel: false });
    const file = path.join(h.home, 'kept.log');
    const pid = h.manager.pid('stub');
    const stop = new AbortController();
    const pending = h.dispatch('mcp__stub__work', { file }, stop.signal);
    await waitFor(() => size(file) > 0);
    stop.abort();
    expect(await pending).toMatchObject({ outcome: 'cancelled' });
    await sleep(CANCEL_GRACE_MS + 700);
    // What the person chose: the server's own worker runs on, and nothing was restarted.
    const grown = size(file);
    await sleep(300);
    expect(size(file)).toBeGreaterThan(grown);
    expect(h.manager.pid('stub')).toBe(pid);
    expect(views.some((view) => view.state.status === 'reconnecting')).toBe(false);
  });
});

describe('a stdio server that honours the cancel', () => {
  it('answers the cancelled request within the grace: it keeps running, nothing is restarted', async () => {
    const { h, views } = await start();
    const file = path.join(h.home, 'polite.log');
    const pid = h.manager.pid('stub');
    const stop = new AbortController();
    const pending = h.dispatch('mcp__stub__polite_work', { file }, stop.signal);
    await waitFor(() => size(file) > 0);
    stop.abort();
    expect(await pending).toMatchObject({ outcome: 'cancelled' });
    await stopsGrowing(file, 2000);
    await sleep(CANCEL_GRACE_MS + 700);
    expect(h.manager.pid('stub')).toBe(pid);
    expect(views.some((view) => view.state.status === 'reconnecting')).toBe(false);
    expect(outcomeText(await h.dispatch('mcp__stub__pid', {}))).toBe(String(pid));
  });
});
