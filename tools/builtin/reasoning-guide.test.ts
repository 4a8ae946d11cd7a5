import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL_DISCOVERY_GUIDE } from './guides/tool-discovery-guide';
import { EXAMPLE_SCRIPT_JS, TOOL_GENERATE_GUIDE } from './guides/tool-generate-guide';
import { builtinTools } from './index';
import { REASONING_GUIDES, reasoningGuideTool } from './reasoning-guide';
import type { ToolContext } from '../sdk/types';
import { ToolError } from '../sdk/types';

const ctx: ToolContext = {
  signal: new AbortController().signal,
  progress: () => {},
  log: { info: () => {}, warn: () => {}, error: () => {} },
  getSecret: () => Promise.resolve(undefined),
  workspace: tmpdir(),
  chatId: 'chat',
  callId: 'call',
  deadline: null,
  approval: { by: 'person', ruleId: null, ruleOrigin: null },
  services: {},
};

async function call(args: Record<string, unknown>): Promise<unknown> {
  return reasoningGuideTool.handler(args, ctx);
}

async function failure(args: Record<string, unknown>): Promise<ToolError> {
  const error: unknown = await call(args).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('reasoning_guide', () => {
  it('is a read-only, parallel-safe system tool (like the rest of the fixed set) that lists its topics', () => {
    expect(reasoningGuideTool.name).toBe('reasoning_guide');
    expect(reasoningGuideTool.flags).toEqual({
      alwaysAllow: true,
      concurrent: true,
      background: false,
      systemUse: true,
    });
    const topics = (reasoningGuideTool.parameters.properties as Record<string, { items: { enum: string[] } }>)
      .topics;
    expect(topics?.items.enum).toEqual(Object.keys(REASONING_GUIDES));
    expect(reasoningGuideTool.parameters.required).toEqual(['topics']);
  });

  it('is one of the built-in tools', () => {
    expect(builtinTools()).toContain(reasoningGuideTool);
  });

  it('returns the tool generation guide', async () => {
    expect(await call({ topics: ['tool_generate'] })).toBe(TOOL_GENERATE_GUIDE);
  });

  it('returns several guides in the order asked, each once', async () => {
    const text = await call({ topics: ['tool_discovery', 'tool_generate', 'tool_discovery'] });
    expect(text).toBe(`${TOOL_DISCOVERY_GUIDE}\n${TOOL_GENERATE_GUIDE}`);
  });

  it('accepts a single topic given as a string', async () => {
    expect(await call({ topics: 'tool_discovery' })).toBe(TOOL_DISCOVERY_GUIDE);
  });

  it.each([
    ['missing', {}],
    ['null', { topics: null }],
  ])('refuses %s topics, naming the parameter and the known topics', async (_case, args) => {
    const error = await failure(args);
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toContain('`topics` is required');
    expect(error.message).toContain('"tool_generate"');
    expect(error.details).toMatchObject({ parameter: 'topics' });
  });

  it('refuses an empty list', async () => {
    const error = await failure({ topics: [] });
    expect(error.message).toContain('`topics` is empty');
  });

  it('refuses unknown topics, naming each one', async () => {
    const error = await failure({ topics: ['tool_generate', 'cooking', 7, null] });
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toContain('`topics` has unknown topics "cooking", 7, null');
    expect(error.message).toContain('"tool_discovery"');
    expect(error.details).toMatchObject({ parameter: 'topics', unknown: ['cooking', 7, null] });
  });

  it('does not take inherited object keys for topics', async () => {
    const error = await failure({ topics: ['toString'] });
    expect(error.message).toContain('unknown topic "toString"');
  });
});

describe('the guides', () => {
  it('covers each rule and the script tool contract', () => {
    for (const text of ['## R1', '## R2', '## R3', '## R4', '## R5', 'What / When / Precondition']) {
      expect(TOOL_GENERATE_GUIDE).toContain(text);
    }
    for (const text of [
      'tool.json',
      'script.py',
      'python3',
      'script_<name>',
      'always_allow',
      'concurrent',
      'timeout',
      'secrets',
      'script error: <stderr>',
      'process group',
      '1 MiB',
      '$AGENVOY_HOME/tools/script/<folder>/',
      '<workspace>/.config/agenvoy/tools/script/',
    ]) {
      expect(TOOL_GENERATE_GUIDE).toContain(text);
    }
  });

  it('uses only Latin letters', () => {
    for (const guide of Object.values(REASONING_GUIDES)) {
      expect(guide.match(/[^\P{L}\p{Script=Latin}\p{Script=Common}]/gu)).toBeNull();
    }
  });

  describe('worked example script.js', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'agenvoy-guide-'));
    const script = path.join(dir, 'script.js');
    writeFileSync(script, EXAMPLE_SCRIPT_JS);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    function run(args: unknown): { status: number | null; stdout: string; stderr: string } {
      const result = spawnSync(process.execPath, [script], { input: JSON.stringify(args), encoding: 'utf8' });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    }

    it('is the script the guide shows', () => {
      expect(TOOL_GENERATE_GUIDE).toContain(EXAMPLE_SCRIPT_JS);
    });

    it('prints the result and exits 0', () => {
      expect(run({ value: 10, from: 'km', to: 'mi' })).toEqual({
        status: 0,
        stdout: '10 km = 6.21 mi\n',
        stderr: '',
      });
      expect(run({ value: 100, from: 'c', to: 'f', precision: 0 }).stdout).toBe('100 c = 212 f\n');
    });

    it('falls back to its default when an optional value is null', () => {
      expect(run({ value: 1, from: 'lb', to: 'kg', precision: null }).stdout).toBe('1 lb = 0.45 kg\n');
    });

    it('exits non-zero with one clear stderr line on bad input', () => {
      expect(run({ value: 1, from: 'kg', to: 'km' })).toMatchObject({
        status: 1,
        stdout: '',
        stderr: 'cannot convert kg to km: they measure different quantities\n',
      });
      expect(run({ from: 'kg', to: 'lb' })).toMatchObject({
        status: 1,
        stderr: expect.stringContaining('value'),
      });
    });

    it('also runs as an ES module', () => {
      const mjs = path.join(dir, 'script.mjs');
      writeFileSync(mjs, EXAMPLE_SCRIPT_JS);
      const result = spawnSync(process.execPath, [mjs], {
        input: '{"value": 1, "from": "m", "to": "ft"}',
        encoding: 'utf8',
      });
      expect(result.stdout).toBe('1 m = 3.28 ft\n');
    });
  });

  // The Python snippet is run where python3 exists; the CI image may not have it.
  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python)('shows a Python script that reads stdin and reports errors on stderr', () => {
    const source = /```python\n([\s\S]*?)```/.exec(TOOL_GENERATE_GUIDE)?.[1] ?? '';
    const ok = spawnSync('python3', ['-c', source], { input: '{"value": 2.5}', encoding: 'utf8' });
    expect([ok.status, ok.stdout]).toEqual([0, '5.0\n']);
    const bad = spawnSync('python3', ['-c', source], { input: '{"value": null}', encoding: 'utf8' });
    expect([bad.status, bad.stderr]).toEqual([1, 'value must be a number, e.g. 12.5\n']);
  });
});
