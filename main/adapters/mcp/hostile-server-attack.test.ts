// A hostile MCP server against the real client (docs/security.md, "A hostile MCP server"): a real stdio child
// (fixtures/hostile-server.mjs) through McpManager and the real dispatcher. It sends a message past the size limit,
// floods tools/list_changed while holding tools/list back, starts requests of its own, and floods progress.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STDIO_MAX_MESSAGE_BYTES } from './group-stdio-transport';
import { PROGRESS_INTERVAL_MS, PROGRESS_MESSAGE_CHARS } from './request-options';
import { fixture, mcpHarness, waitFor } from './mcp-testing';
import { outcomeText } from '../../core/outcome';

type Harness = ReturnType<typeof mcpHarness>;
let harness: Harness | null = null;
let crashes: unknown[] = [];
const record = (error: unknown) => crashes.push(error);

beforeEach(() => {
  crashes = [];
  // An exception thrown from a stream listener is uncaught: in the app it ends the process.
  process.on('uncaughtException', record);
});

afterEach(async () => {
  process.off('uncaughtException', record);
  await harness?.dispose();
  harness = null;
});

async function start(extra: Record<string, unknown> = {}): Promise<Harness> {
  harness = mcpHarness({
    servers: { bad: { command: process.execPath, args: [fixture('hostile-server.mjs')], ...extra } },
  });
  await harness.manager.start();
  expect(harness.state('bad')).toMatchObject({ status: 'ready' });
  return harness;
}

describe('a server sends a message past the size limit', () => {
  it.each([
    ['a line that never ends', false],
    ['a complete result that large', true],
  ])(
    '%s: the app does not crash, the call fails at once saying why, the server reconnects',
    async (_, complete) => {
      const h = await start({ timeout: 20 });
      const started = Date.now();
      const outcome = await h.dispatch('mcp__bad__blow', {
        bytes: STDIO_MAX_MESSAGE_BYTES + 1024 * 1024,
        complete,
      });
      expect(crashes.map(String)).toEqual([]);
      // Not the 20 s limit: the session ends as soon as the message passes the limit, read in linear time.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(outcome).toMatchObject({ outcome: 'error', code: 'mcp_server_disconnected' });
      expect(outcomeText(outcome)).toMatch(/message larger than 10 MiB/);
      await waitFor(() => h.state('bad')?.status === 'ready', 10_000);
      expect(outcomeText(await h.dispatch('mcp__bad__echo', { text: 'still here' }))).toBe('still here');
    },
  );

  it('a message just under the limit is still read', async () => {
    const h = await start({ timeout: 20 });
    const outcome = await h.dispatch('mcp__bad__blow', { bytes: 2 * 1024 * 1024, complete: true });
    expect(outcome.outcome).toBe('ok');
    expect(crashes).toEqual([]);
  });
});

describe('a server floods tools/list_changed and answers tools/list slowly', () => {
  it('announcements coalesce: a call waits for one refresh, not one per announcement', async () => {
    const h = await start({ connectTimeout: 10 });
    const listsBefore = Number(outcomeText(await h.dispatch('mcp__bad__lists', {})));
    // 40 announcements, each tools/list then answered after 250 ms: one refresh per announcement is 10 s.
    expect(await h.dispatch('mcp__bad__announce', { count: 40, list_delay_ms: 250 })).toMatchObject({
      outcome: 'ok',
    });
    const started = Date.now();
    expect(outcomeText(await h.dispatch('mcp__bad__echo', { text: 'hi' }))).toBe('hi');
    expect(Date.now() - started).toBeLessThan(3_000);
    const lists = Number(outcomeText(await h.dispatch('mcp__bad__lists', {}))) - listsBefore;
    expect(lists).toBeLessThanOrEqual(3);
  });

  it('a stop ends a call still waiting for the announced list at once, not when the list comes', async () => {
    const h = await start({ connectTimeout: 20 });
    // tools/list now answers after 8 s: the call below waits for it before it may be decided.
    expect(await h.dispatch('mcp__bad__announce', { count: 1, list_delay_ms: 8_000 })).toMatchObject({
      outcome: 'ok',
    });
    const stop = new AbortController();
    const started = Date.now();
    const pending = h.dispatch('mcp__bad__echo', { text: 'hi' }, stop.signal);
    setTimeout(() => stop.abort(), 300);
    expect(await pending).toMatchObject({ outcome: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('a server starts requests of its own', () => {
  it('roots/list, sampling and elicitation are refused: no workspace path, no model, no question', async () => {
    const h = await start();
    const outcome = await h.dispatch('mcp__bad__probe_client', {});
    expect(outcome.outcome).toBe('ok');
    const text = outcomeText(outcome);
    const replies = JSON.parse(text) as Record<string, { error?: { code: number }; result?: unknown }>;
    for (const method of ['roots/list', 'sampling/createMessage', 'elicitation/create']) {
      expect(replies[method]?.result, method).toBeUndefined();
      expect(replies[method]?.error?.code, method).toBe(-32601);
    }
    expect(text).not.toContain(h.home);
  });
});

describe('a server floods progress notifications', () => {
  it('at most one update per interval reaches the call events, each message clipped; the call still succeeds', async () => {
    const h = await start({ timeout: 60 });
    const messages: string[] = [];
    const off = h.core.dispatcher.on((event) => {
      if (event.type === 'call.progress') messages.push(event.update.message ?? '');
    });
    const started = performance.now();
    const outcome = await h.dispatch('mcp__bad__flood_progress', { count: 2000, message_bytes: 20_000 });
    const elapsed = performance.now() - started;
    off();
    expect(outcome.outcome).toBe('ok');
    expect(messages.length).toBeGreaterThanOrEqual(1);
    // 2,000 notifications of 20 kB: without the bound, 2,000 events and 40 MB for every window.
    expect(messages.length).toBeLessThanOrEqual(Math.ceil(elapsed / PROGRESS_INTERVAL_MS) + 1);
    for (const message of messages) {
      expect(message.length).toBeLessThan(PROGRESS_MESSAGE_CHARS + 100);
      // Cut in the redactor's words, so a key the cut falls inside is still scrubbed (main/core/cut-secret-attack.test.ts).
      expect(message).toMatch(/ \[output truncated: 18000 characters cut\]$/);
    }
  });
});
