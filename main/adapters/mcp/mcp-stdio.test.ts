// The MCP client against real stdio servers: server-everything (third party) and a small tool-changing fixture.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallEvent } from '../../core/dispatcher';
import { everythingStdio, fixture, mcpHarness, waitFor } from './mcp-testing';

type Harness = ReturnType<typeof mcpHarness>;
let harness: Harness | null = null;

function open(mcpJson: unknown, options?: Parameters<typeof mcpHarness>[1]): Harness {
  harness = mcpHarness(mcpJson, options);
  return harness;
}

afterEach(async () => {
  await harness?.dispose();
  harness = null;
});

function tapFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-tap-')), 'tap.jsonl');
}

function tapped(file: string): Array<{ method?: string; id?: number; params?: Record<string, unknown> }> {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { method?: string });
}

describe('MCP over stdio against server-everything', () => {
  it('lists its tools under mcp__<server>__, calls echo and get-sum, and logs its stderr', async () => {
    const h = open({ servers: { ev: everythingStdio() } });
    await h.manager.start();
    expect(h.state('ev')).toMatchObject({ status: 'ready', transport: 'stdio' });
    const names = h.core.registry.all().map((t) => t.spec.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp__ev__echo',
        'mcp__ev__get-sum',
        'mcp__ev__trigger-long-running-operation',
      ]),
    );
    expect(h.core.registry.get('mcp__ev__echo')?.spec.source).toEqual({
      kind: 'mcp',
      server: 'ev',
      remoteName: 'echo',
    });

    expect(await h.dispatch('mcp__ev__echo', { message: 'hello' })).toMatchObject({
      outcome: 'ok',
      text: 'Echo: hello',
    });
    expect(await h.dispatch('mcp__ev__get-sum', { a: 2, b: 40 })).toMatchObject({
      outcome: 'ok',
      text: 'The sum of 2 and 40 is 42.',
    });
    // Arguments are checked against the server's schema before anything is sent.
    expect(await h.dispatch('mcp__ev__get-sum', { a: 'two', b: 1 })).toMatchObject({
      outcome: 'error',
      code: 'invalid_arguments',
    });
    const image = await h.dispatch('mcp__ev__get-tiny-image', {});
    expect(image.outcome === 'ok' && image.content.map((p) => p.type)).toEqual(['text', 'image', 'text']);
    // stderr goes to the app log, never to our own stderr.
    expect(h.core.readLog()).toContain(
      'mcp server stderr server=ev line="Starting default (STDIO) server..."',
    );
  });

  it('makes readOnlyHint tools alwaysAllow and concurrent only through trust', async () => {
    const h = open({
      servers: {
        plain: everythingStdio(),
        all: everythingStdio({ trust: true }),
        some: everythingStdio({ trust: ['gzip-file-as-resource'] }),
      },
    });
    await h.manager.start();
    const flags = (name: string) => h.core.registry.get(name)?.spec.flags;
    // A read-only hint from a server the person has not trusted changes nothing (docs/tools.md, "Behaviour flags"; docs/security.md, "Nothing skips the gate").
    expect(flags('mcp__plain__echo')).toMatchObject({ concurrent: false, alwaysAllow: false });
    expect(flags('mcp__plain__gzip-file-as-resource')).toMatchObject({
      concurrent: false,
      alwaysAllow: false,
    });
    expect(flags('mcp__all__echo')).toMatchObject({ alwaysAllow: true, concurrent: true });
    expect(flags('mcp__all__gzip-file-as-resource')).toMatchObject({ alwaysAllow: false, concurrent: false });
    // Trusted by name but not read-only: it skips the gate, yet never runs in parallel.
    expect(flags('mcp__some__echo')).toMatchObject({ alwaysAllow: false, concurrent: false });
    expect(flags('mcp__some__gzip-file-as-resource')).toMatchObject({ alwaysAllow: true, concurrent: false });
    expect(h.core.registry.get('mcp__plain__echo')?.spec.timeoutMs).toBe(15 * 60 * 1000);
  });

  it('cancels mid-call: the call ends cancelled at once and notifications/cancelled reaches the server', async () => {
    const tap = tapFile();
    const h = open({ servers: { ev: everythingStdio({}, tap) } });
    await h.manager.start();
    const events: CallEvent[] = [];
    h.core.dispatcher.on((event) => events.push(event));
    const controller = new AbortController();
    const pending = h.dispatch(
      'mcp__ev__trigger-long-running-operation',
      { duration: 20, steps: 40 },
      controller.signal,
    );
    await waitFor(() => events.some((e) => e.type === 'call.progress'));
    const cancelledAt = Date.now();
    controller.abort();
    const outcome = await pending;
    expect(outcome.outcome).toBe('cancelled');
    // The operation runs 20 s: settling this fast shows the cancel stopped it (generous for a loaded CI).
    expect(Date.now() - cancelledAt).toBeLessThan(3000);
    const progress = events.find((e) => e.type === 'call.progress');
    expect(progress?.type === 'call.progress' && progress.update).toMatchObject({ progress: 1, total: 40 });
    const call = await waitFor(() => tapped(tap).find((m) => m.method === 'tools/call'));
    const cancel = await waitFor(() => tapped(tap).find((m) => m.method === 'notifications/cancelled'));
    expect(cancel.params?.requestId).toBe(call.id);
  });

  it('cuts a call at the server timeout from mcp.json, even while progress keeps arriving, and cancels it', async () => {
    const tap = tapFile();
    const h = open({ servers: { ev: everythingStdio({ timeout: 1.5 }, tap) } });
    await h.manager.start();
    expect(h.core.registry.get('mcp__ev__echo')?.spec.timeoutMs).toBe(1500);
    const started = Date.now();
    const outcome = await h.dispatch('mcp__ev__trigger-long-running-operation', { duration: 10, steps: 20 });
    expect(outcome).toMatchObject({ outcome: 'timed_out', message: 'timed out after 1.5 s', limitMs: 1500 });
    expect(Date.now() - started).toBeLessThan(2500);
    await waitFor(() => tapped(tap).find((m) => m.method === 'notifications/cancelled'));
  });

  it('fails an in-flight call at once when the server dies, then reconnects and brings its tools back', async () => {
    const h = open({ servers: { ev: everythingStdio() } });
    await h.manager.start();
    const events: CallEvent[] = [];
    h.core.dispatcher.on((event) => events.push(event));
    const pid = h.manager.pid('ev') as number;
    const pending = h.dispatch('mcp__ev__trigger-long-running-operation', { duration: 30, steps: 60 });
    await waitFor(() => events.some((e) => e.type === 'call.progress'));
    const killedAt = Date.now();
    process.kill(-pid, 'SIGKILL');
    const outcome = await pending;
    expect(Date.now() - killedAt).toBeLessThan(1000);
    expect(outcome).toMatchObject({ outcome: 'error', code: 'mcp_server_disconnected' });
    expect(outcome.outcome === 'error' && outcome.message).toContain(
      'MCP server "ev" was killed by SIGKILL during the call',
    );
    expect(h.state('ev')).toMatchObject({ status: 'reconnecting', reason: 'was killed by SIGKILL' });
    expect(h.core.registry.get('mcp__ev__echo')).toBeUndefined();

    await waitFor(() => h.state('ev')?.status === 'ready');
    expect(h.manager.pid('ev')).not.toBe(pid);
    expect(await h.dispatch('mcp__ev__echo', { message: 'back' })).toMatchObject({
      outcome: 'ok',
      text: 'Echo: back',
    });
  });

  it('follows tools/list_changed: new tools appear, a changed description gets a new definition hash', async () => {
    const h = open({
      servers: {
        chg: { command: process.execPath, args: [fixture('changing-server.mjs')], trust: ['echo_text'] },
      },
    });
    await h.manager.start();
    const before = h.core.registry.get('mcp__chg__echo_text');
    expect(before?.spec.flags.alwaysAllow).toBe(true);

    expect(await h.dispatch('mcp__chg__add_tool', { name: 'fresh_tool' })).toMatchObject({ outcome: 'ok' });
    await waitFor(() => h.core.registry.get('mcp__chg__fresh_tool'));
    expect(h.manager.states()[0]).toMatchObject({ state: { status: 'ready', tools: 5 } });

    expect(await h.dispatch('mcp__chg__set_description', { text: 'Echo text back, louder.' })).toMatchObject({
      outcome: 'ok',
    });
    const after = await waitFor(() => {
      const tool = h.core.registry.get('mcp__chg__echo_text');
      return tool?.spec.description === 'Echo text back, louder.' ? tool : null;
    });
    // Approval rules are tied to the hash: a changed definition no longer matches them (docs/security.md, "Decisions and rules").
    expect(after.definitionHash).not.toBe(before?.definitionHash);
  });
});
