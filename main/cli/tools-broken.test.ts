// The tool catalogues that took every command down, as a user meets them: a real 3,000-level tool.json in a
// workspace, a tool whose enum once broke the linter's regular expression, an unknown tool.json key. Each tool is
// contained and named; `tools list`, `tools search`, `tools lint`, `rules list` and a chat turn keep working.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from './testing/cli-harness';
import { chatWithCalls, runCli } from './testing/cli-harness';

let place: CliPlace;
let workspaceTools: string;

function writeTool(root: string, folder: string, manifest: string | Record<string, unknown>): string {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'tool.json'),
    typeof manifest === 'string' ? manifest : JSON.stringify(manifest),
  );
  fs.writeFileSync(path.join(dir, 'script.js'), 'process.stdout.write("ran")');
  return dir;
}

/** The tool.json of the issue: a schema nested 3,000 levels through `properties` (~110 KB), written as text. */
function deepManifest(): string {
  const open = '{"type":"object","properties":{"d":'.repeat(3000);
  const close = '}}'.repeat(3000);
  return JSON.stringify({
    name: 'deep_tree',
    description: 'Read a deeply nested tree from a file.\nUse when nesting matters; use read_file otherwise.',
    parameters: { type: 'object', properties: { root: '__ROOT__' } },
  }).replace('"__ROOT__"', `${open}{"type":"string"}${close}`);
}

const periods = {
  name: 'list_events',
  description:
    'List the events of a period from the calendar.\nUse when asked about events; use search_web for news.',
  parameters: {
    type: 'object',
    properties: {
      period: { type: 'string', enum: ['last-day', 'last-week', 'last-month'], description: 'Which period.' },
    },
    required: ['period'],
  },
  background: true,
};

beforeEach(() => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-broken-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-broken-ws-'));
  place = { home, cwd };
  workspaceTools = path.join(cwd, '.config', 'agenvoy', 'tools', 'script');
  writeTool(path.join(home, 'tools', 'script'), 'events', periods);
  writeTool(workspaceTools, 'deep', deepManifest());
  expect(fs.statSync(path.join(workspaceTools, 'deep', 'tool.json')).size).toBeGreaterThan(100_000);
});

afterEach(() => {
  fs.rmSync(place.home, { recursive: true, force: true });
  fs.rmSync(place.cwd, { recursive: true, force: true });
});

describe('a catalogue with a 3,000-level tool.json and a "last-day" enum', () => {
  it('tools list --json stays an array: the deep tool is broken at limits, the enum tool is listed', async () => {
    const run = await runCli(['tools', 'list', '--json'], place);
    expect(run.stderr).not.toMatch(/Maximum call stack|Invalid regular expression/);
    expect(run.code).toBe(0);
    const tools = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(Array.isArray(tools)).toBe(true);
    const deep = tools.find((t) => t.name === 'script_deep_tree');
    expect(deep).toMatchObject({
      source: 'script',
      trusted: false,
      offeredHeadless: false,
      broken: {
        step: 'limits',
        reason: expect.stringMatching(
          /^parameter schema is nested deeper than 64 levels \(at properties\.root/,
        ),
      },
    });
    const events = tools.find((t) => t.name === 'script_list_events');
    expect(events).toMatchObject({
      offeredHeadless: true,
      warnings: [expect.stringContaining('unknown key "background" is ignored')],
    });
    expect(events?.broken).toBeUndefined();
    expect(tools.some((t) => t.name === 'run_command')).toBe(true);
    const table = await runCli(['tools', 'list'], place);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(
      /script_deep_tree .*BROKEN at limits: parameter schema is nested deeper than 64/,
    );
    expect(table.stdout).toMatch(/script_list_events .*unknown key "background" is ignored/);
  });

  it('tools search finds the good tools and never the broken one', async () => {
    const run = await runCli(['tools', 'search', 'events', 'calendar', '--json'], place);
    expect(run.code).toBe(0);
    const hits = JSON.parse(run.stdout) as Array<{ name: string }>;
    expect(hits[0]?.name).toBe('script_list_events');
    const deep = await runCli(['tools', 'search', 'deeply nested tree', '--json'], place);
    expect(deep.code).toBe(0);
    expect((JSON.parse(deep.stdout) as Array<{ name: string }>).map((h) => h.name)).not.toContain(
      'script_deep_tree',
    );
  });

  it('tools lint reports the broken tool, the unknown key and the enum finding, with built-ins clean', async () => {
    const run = await runCli(['tools', 'lint', '--json'], place);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as Array<{
      tool: string;
      code: string;
      level: string;
      message: string;
    }>;
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          tool: 'script_deep_tree',
          code: 'BROKEN',
          level: 'error',
          message: expect.stringMatching(/^broken at the limits step: parameter schema is nested deeper/),
        }),
        expect.objectContaining({
          tool: 'script_list_events',
          code: 'LOAD_WARNING',
          message: expect.stringContaining('unknown key "background" is ignored (script tools always run'),
        }),
        expect.objectContaining({ tool: 'script_list_events', code: 'R3_ENUM_UNEXPLAINED' }),
      ]),
    );
    const lintDir = await runCli(['tools', 'lint', '--dir', workspaceTools, '--json'], place);
    expect(JSON.parse(lintDir.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool: 'script_deep_tree', code: 'BROKEN' })]),
    );
  });

  it('rules list works in that workspace', async () => {
    const run = await runCli(['rules', 'list', '--json'], place);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(Array.isArray(JSON.parse(run.stdout))).toBe(true);
  });

  it('a chat turn works in that workspace; calling the broken tool is an error naming the step and reason', async () => {
    const run = await chatWithCalls(
      [
        { name: 'script_deep_tree', args: { root: {} } },
        { name: 'reasoning_guide', args: { topics: ['tool_discovery'] } },
      ],
      place,
      'deny',
    );
    expect(run.stderr).not.toMatch(/Maximum call stack|Invalid regular expression/);
    expect(run.code).toBe(0);
    expect(run.toolResults.call_1).toContain('find_tools');
    expect(run.toolResults.call_0).toMatch(
      /tool "script_deep_tree" is broken and cannot be called \(step limits: parameter schema is nested deeper/,
    );
    // The model was never offered the broken tool, not even by name in run_tool's list.
    for (const request of run.server.requests) {
      expect(JSON.stringify(request.body?.tools ?? [])).not.toContain('script_deep_tree');
    }
  });
});
