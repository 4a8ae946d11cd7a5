// The MCP client against server-everything over Streamable HTTP (and the old SSE transport) on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import type { CallEvent } from '../../core/dispatcher';
import type { EverythingHttp, RecordingProxy } from './mcp-testing';
import { mcpHarness, startEverythingHttp, startProxy, waitFor } from './mcp-testing';
import { createMcpFetch, httpTimeoutsFor } from './http-fetch';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function server(port?: number, mode?: 'streamableHttp' | 'sse'): Promise<EverythingHttp> {
  const started = await startEverythingHttp(port, mode);
  cleanups.push(() => started.stop());
  return started;
}

async function proxy(target: string, delayMs?: (body: string) => number): Promise<RecordingProxy> {
  const started = await startProxy(target, delayMs);
  cleanups.push(() => started.close());
  return started;
}

function harness(...args: Parameters<typeof mcpHarness>) {
  const h = mcpHarness(...args);
  cleanups.push(() => h.close());
  return h;
}

function messages(
  proxied: RecordingProxy,
): Array<{ method?: string; id?: number; params?: Record<string, unknown> }> {
  return proxied.bodies
    .filter((body) => body.startsWith('{'))
    .map((body) => JSON.parse(body) as { method?: string });
}

const isEchoCall = (body: string) => body.includes('"tools/call"') && body.includes('"echo"');

describe('MCP over Streamable HTTP against server-everything', () => {
  it('lists and calls echo and get-sum', async () => {
    const ev = await server();
    const h = harness({ servers: { web: { url: ev.url } } });
    await h.manager.start();
    expect(h.state('web')).toMatchObject({ status: 'ready', transport: 'streamable-http' });
    expect(h.core.registry.get('mcp__web__get-sum')?.spec.source).toEqual({
      kind: 'mcp',
      server: 'web',
      remoteName: 'get-sum',
    });
    expect(await h.dispatch('mcp__web__echo', { message: 'over http' })).toMatchObject({
      outcome: 'ok',
      text: 'Echo: over http',
    });
    expect(await h.dispatch('mcp__web__get-sum', { a: 1.5, b: 2 })).toMatchObject({
      outcome: 'ok',
      text: 'The sum of 1.5 and 2 is 3.5.',
    });
  });

  it('sends notifications/cancelled to the server when a call is cancelled', async () => {
    const ev = await server();
    const recorded = await proxy(ev.url);
    const h = harness({ servers: { web: { url: recorded.url } } });
    await h.manager.start();
    const events: CallEvent[] = [];
    h.core.dispatcher.on((event) => events.push(event));
    const controller = new AbortController();
    const pending = h.dispatch(
      'mcp__web__trigger-long-running-operation',
      { duration: 20, steps: 40 },
      controller.signal,
    );
    await waitFor(() => events.some((e) => e.type === 'call.progress'));
    controller.abort();
    expect((await pending).outcome).toBe('cancelled');
    const call = messages(recorded).find((m) => m.method === 'tools/call');
    const cancel = await waitFor(() =>
      messages(recorded).find((m) => m.method === 'notifications/cancelled'),
    );
    expect(cancel.params?.requestId).toBe(call?.id);
  });

  it('fails an in-flight call at once when the server dies, and reconnects once it is back', async () => {
    const ev = await server();
    const h = harness({ servers: { web: { url: ev.url } } });
    await h.manager.start();
    const events: CallEvent[] = [];
    h.core.dispatcher.on((event) => events.push(event));
    const pending = h.dispatch('mcp__web__trigger-long-running-operation', { duration: 30, steps: 60 });
    await waitFor(() => events.some((e) => e.type === 'call.progress'));
    const killedAt = Date.now();
    process.kill(-(ev.child.pid as number), 'SIGKILL');
    const outcome = await pending;
    expect(Date.now() - killedAt).toBeLessThan(1000);
    expect(outcome).toMatchObject({ outcome: 'error', code: 'mcp_server_disconnected' });
    expect(outcome.outcome === 'error' && outcome.message).toMatch(
      /^MCP server "web" lost the connection \(.+\) during the call/,
    );
    await waitFor(() => h.state('web')?.status === 'reconnecting');
    expect(h.core.registry.get('mcp__web__echo')).toBeUndefined();

    await server(ev.port);
    await waitFor(() => h.state('web')?.status === 'ready', 15_000);
    expect(await h.dispatch('mcp__web__echo', { message: 'again' })).toMatchObject({
      outcome: 'ok',
      text: 'Echo: again',
    });
  });

  it('falls back to the older SSE transport for a server that only speaks it', async () => {
    const ev = await server(undefined, 'sse');
    const h = harness({ servers: { old: { url: ev.url } } });
    await h.manager.start();
    expect(h.state('old')).toMatchObject({ status: 'ready', transport: 'sse' });
    expect(await h.dispatch('mcp__old__echo', { message: 'legacy' })).toMatchObject({
      outcome: 'ok',
      text: 'Echo: legacy',
    });
  });
});

describe('a silent HTTP response', () => {
  // Node's fetch gives up on a response whose headers take over 5 min. The same mechanism at test scale: a
  // server that answers echo after 1.5 s, and an HTTP client whose header timeout is 0.5 s.
  const DELAY_MS = 1500;

  it('is cut by an HTTP client whose header timeout is shorter than the wait', async () => {
    const ev = await server();
    const silent = await proxy(ev.url, (body) => (isEchoCall(body) ? DELAY_MS : 0));
    const short = { headersTimeoutMs: 500, bodyTimeoutMs: 500 };
    const h = harness({ servers: { web: { url: silent.url, timeout: 10 } } }, { httpTimeouts: () => short });
    await h.manager.start();
    const outcome = await h.dispatch('mcp__web__echo', { message: 'slow' });
    expect(outcome).toMatchObject({ outcome: 'error', code: 'mcp_transport_error' });
    expect(outcome.outcome === 'error' && outcome.message).toContain('Headers Timeout');
  });

  it('is served within the tool limit, because our client waits past the limit', async () => {
    const ev = await server();
    const silent = await proxy(ev.url, (body) => (isEchoCall(body) ? DELAY_MS : 0));
    const h = harness({ servers: { web: { url: silent.url, timeout: 10 } } });
    await h.manager.start();
    const outcome = await h.dispatch('mcp__web__echo', { message: 'slow' });
    expect(outcome).toMatchObject({ outcome: 'ok', text: 'Echo: slow' });
    expect(outcome.outcome === 'ok' && outcome.durationMs).toBeGreaterThanOrEqual(DELAY_MS - 50);
  });

  it('is cut at the tool limit, not earlier and not by the HTTP client', async () => {
    const ev = await server();
    const silent = await proxy(ev.url, (body) => (isEchoCall(body) ? 5000 : 0));
    const h = harness({ servers: { web: { url: silent.url, timeout: 1 } } });
    await h.manager.start();
    expect(await h.dispatch('mcp__web__echo', { message: 'too slow' })).toMatchObject({
      outcome: 'timed_out',
      message: 'timed out after 1 s',
    });
  });

  it('derives the client timeouts from the limit: past 15 min for the default, never Node’s 5 min', () => {
    expect(httpTimeoutsFor(15 * 60_000)).toEqual({
      headersTimeoutMs: 16 * 60_000,
      bodyTimeoutMs: 16 * 60_000,
    });
    expect(httpTimeoutsFor(Number.POSITIVE_INFINITY)).toEqual({ headersTimeoutMs: 0, bodyTimeoutMs: 0 });
    const http = createMcpFetch(httpTimeoutsFor(1000));
    cleanups.push(() => http.close());
    expect(typeof http.fetch).toBe('function');
  });
});
