// A real MCP server (stdio, hand-written JSON-RPC) whose tools/list mixes good tools with a 3,000-level schema, a
// schema without type "object", a bad pattern, an uncompilable output schema, a runaway description and a nameless
// entry: each bad tool is named as broken or refused, the good ones register and run, nothing else is lost.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../app';
import type { Core } from '../../app';
import { policyGate } from '../../core/gate-port';
import { runCli } from '../../cli/testing/cli-harness';
import { fixture } from './mcp-testing';

let home: string;
let cwd: string;
let core: Core | null = null;

function writeMcpJson(env: Record<string, string> = {}): void {
  fs.writeFileSync(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      servers: { odd: { command: process.execPath, args: [fixture('odd-tools-server.mjs')], env } },
    }),
  );
}

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-mcp-odd-'));
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-mcp-odd-ws-'));
  writeMcpJson();
});

afterEach(async () => {
  await core?.close();
  core = null;
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('an MCP server with broken tools next to good ones', () => {
  it('agenvoy tools list shows each bad tool broken with its step and reason; the good ones are usable', async () => {
    const run = await runCli(['tools', 'list', '--json'], { home, cwd });
    expect(run.stderr).not.toMatch(/Maximum call stack|Invalid regular expression|Invalid escape/);
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout) as Array<{
      name: string;
      broken?: { step: string; reason: string };
    }>;
    const odd = Object.fromEntries(
      tools.filter((t) => t.name.startsWith('mcp__odd__')).map((t) => [t.name, t.broken]),
    );
    expect(odd).toEqual({
      mcp__odd__echo_text: undefined,
      mcp__odd__list_events: undefined,
      // The output schema is the server's business: the tool registers, its calls say why they fail.
      mcp__odd__bad_output: undefined,
      mcp__odd__deep_tree: {
        step: 'limits',
        reason: expect.stringMatching(/^inputSchema is nested deeper than 64 levels \(at properties\.root/),
      },
      mcp__odd__no_type: { step: 'definition', reason: expect.stringMatching(/^inputSchema\.type: /) },
      mcp__odd__bad_pattern: {
        step: 'compile',
        reason: expect.stringContaining('Invalid regular expression'),
      },
      mcp__odd__chatty: { step: 'limits', reason: 'description is 40000 characters; the limit is 32768' },
    });
    // tools lint reports the MCP tools too: the broken ones, and the design-rule findings of the good ones.
    const lint = await runCli(['tools', 'lint', '--json'], { home, cwd });
    expect(lint.code).toBe(0);
    expect(JSON.parse(lint.stdout)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          tool: 'mcp__odd__deep_tree',
          source: 'mcp',
          code: 'BROKEN',
          level: 'error',
        }),
        expect.objectContaining({
          tool: 'mcp__odd__list_events',
          source: 'mcp',
          code: 'R3_ENUM_UNEXPLAINED',
        }),
      ]),
    );
    const search = await runCli(['tools', 'search', 'events period', '--json'], { home, cwd });
    expect((JSON.parse(search.stdout) as Array<{ name: string }>)[0]?.name).toBe('mcp__odd__list_events');
  });

  it('runs the good tools, refuses the broken ones by name, and names the nameless entry in the server warnings', async () => {
    core = await createCore({ workspace: cwd, gate: policyGate('allow'), home, sandbox: null });
    const call = (name: string, args: Record<string, unknown>) =>
      core!.dispatcher.dispatch(
        { id: name, name, args },
        { chatId: 'c', workspace: cwd, signal: new AbortController().signal },
      );
    expect(await call('mcp__odd__echo_text', { text: 'hi' })).toMatchObject({ outcome: 'ok', text: 'hi' });
    expect(await call('mcp__odd__deep_tree', {})).toMatchObject({
      outcome: 'error',
      code: 'broken_tool',
      message: expect.stringContaining('(step limits: inputSchema is nested deeper than 64 levels'),
    });
    const output = await call('mcp__odd__bad_output', {});
    expect(output).toMatchObject({ outcome: 'error' });
    expect(output.outcome === 'error' && output.message).toMatch(
      /output schema for this tool cannot be used/,
    );
    const server = core.mcp.states().find((s) => s.name === 'odd');
    expect(server?.state.status).toBe('ready');
    expect(server?.warnings).toEqual([expect.stringMatching(/^tools\/list item 6 not registered: name: /)]);
  });

  it('lists no broken entries when the server lists only good definitions', async () => {
    writeMcpJson({ MCP_ODD_TOOLS: 'good-only' });
    core = await createCore({ workspace: cwd, gate: policyGate('allow'), home, sandbox: null });
    expect(
      core.registry
        .listed()
        .filter((t) => t.spec.name.startsWith('mcp__odd__'))
        .map((t) => t.spec.name),
    ).toEqual(['mcp__odd__echo_text', 'mcp__odd__list_events']);
  });
});
