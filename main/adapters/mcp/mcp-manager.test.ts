// McpManager: mcp.json problems stay per server, connect timeouts, secrets, states and shutdown.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { groupAlive } from '../../process/process-group';
import { everythingStdio, fixture, mcpHarness, waitFor } from './mcp-testing';
import type { McpServerView } from './server-state';

type Harness = ReturnType<typeof mcpHarness>;
const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

function harness(...args: Parameters<typeof mcpHarness>): Harness {
  const h = mcpHarness(...args);
  open.push(h);
  return h;
}

describe('McpManager', () => {
  it('reports a malformed mcp.json as a problem naming the file, and starts nothing', async () => {
    const h = harness('{"servers": {"a": {"command": "x",}}}');
    await h.manager.start();
    expect(h.manager.states()).toEqual([]);
    expect(h.manager.problems()).toEqual([
      expect.stringMatching(new RegExp(`^${h.configPath}: malformed JSON: `)),
    ]);
    expect(h.core.readLog()).toContain('mcp.json not loaded');
  });

  it('fails a server with a wrong field alone: the others start, disabled ones stay off', async () => {
    const h = harness({
      mcpServers: {
        broken: { command: 'srv', connectTimeout: 'soon' },
        ok: everythingStdio({ color: 'blue' }),
        off: everythingStdio({ disabled: true }),
      },
    });
    await h.manager.start();
    const states = Object.fromEntries(h.manager.states().map((view) => [view.name, view]));
    expect(states.broken?.state).toEqual({
      status: 'failed',
      reason: `${h.configPath}: server "broken": "connectTimeout" must be a number of seconds above 0 and at most 86400 (got "soon")`,
    });
    expect(states.ok?.state).toMatchObject({ status: 'ready' });
    expect(states.ok?.warnings).toEqual([
      `${h.configPath}: server "ok": unknown key "color" ignored`,
      'tool "simulate-research-query" not registered: it needs task-based execution, which this host does not support',
    ]);
    expect(states.off).toMatchObject({ state: { status: 'disabled' }, tools: [] });
    expect(h.core.registry.all().some((tool) => tool.spec.name.startsWith('mcp__off__'))).toBe(false);
  });

  it('cuts a server that never answers initialize at its connect timeout, in parallel with the others', async () => {
    const h = harness({
      servers: {
        silent: { command: process.execPath, args: [fixture('silent-server.mjs')], connectTimeout: 1 },
        ev: everythingStdio(),
      },
    });
    const started = Date.now();
    await h.manager.start();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(3000);
    expect(h.state('silent')).toEqual({
      status: 'failed',
      reason: 'no answer to initialize within 1 s (connectTimeout)',
    });
    expect(h.state('ev')).toMatchObject({ status: 'ready' });
    // Its process group is gone, and only the live server is still tracked.
    expect(h.groups.size).toBe(1);
  });

  it('fails a server whose ${secret:NAME} is missing, naming NAME; reconnect picks the secret up and redacts it', async () => {
    const secrets: Record<string, string> = {};
    const h = harness(
      {
        servers: {
          ev: everythingStdio({ env: { API_TOKEN: '${secret:API_TOKEN}', PLAIN: '$AGENVOY_TEST_PLAIN' } }),
        },
      },
      { getSecret: async (name) => secrets[name], env: { AGENVOY_TEST_PLAIN: 'plain-value' } },
    );
    await h.manager.start();
    expect(h.state('ev')).toEqual({
      status: 'failed',
      reason:
        'missing secret API_TOKEN (used as ${secret:API_TOKEN} in mcp.json): store it with store_secret',
      credential: { key: 'API_TOKEN', reason: 'missing' },
    });
    secrets.API_TOKEN = 'tok-1234567890';
    await h.manager.reconnect('ev');
    expect(h.state('ev')).toMatchObject({ status: 'ready' });
    const outcome = await h.dispatch('mcp__ev__get-env', {});
    expect(outcome.outcome).toBe('ok');
    const text = outcome.outcome === 'ok' ? outcome.text : '';
    expect(text).toContain('"PLAIN": "plain-value"');
    expect(text).toContain('[redacted:API_TOKEN]');
    expect(text).not.toContain('tok-1234567890');
  });

  it('says why a command cannot start', async () => {
    const h = harness({ servers: { nope: { command: '/nonexistent/mcp-server' } } });
    await h.manager.start();
    expect(h.state('nope')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('cannot start "/nonexistent/mcp-server"'),
    });
  });

  it('reports a server that exits during the handshake with its exit code and last stderr line', async () => {
    const h = harness({
      servers: {
        dies: {
          command: process.execPath,
          args: ['-e', 'console.error("bad config: no ROOT"); process.exit(3)'],
        },
      },
    });
    await h.manager.start();
    expect(h.state('dies')).toEqual({
      status: 'failed',
      reason: 'the server exited with code 3 (bad config: no ROOT) before answering initialize',
    });
  });

  it('tells listeners about every state change and kills its servers on stop', async () => {
    const h = harness({ servers: { ev: everythingStdio() } });
    const seen: McpServerView[] = [];
    h.manager.onChange((view) => seen.push(view));
    await h.manager.start();
    expect(seen.map((view) => view.state.status)).toEqual(['connecting', 'ready']);
    expect(seen.at(-1)?.tools).toContain('mcp__ev__echo');
    const pid = h.manager.pid('ev') as number;
    expect(groupAlive(pid)).toBe(true);
    await h.manager.stop();
    await waitFor(() => !groupAlive(pid), 3000);
    expect(h.core.registry.all().filter((tool) => tool.spec.source.kind === 'mcp')).toEqual([]);
    expect(fs.existsSync(h.configPath)).toBe(true);
  });
});
