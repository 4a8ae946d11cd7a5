// Isolation per tool: a tool that fails any per-tool step (definition, limits, lint, compile, hash, index, list) is
// kept as broken with the step and the reason, is never offered, cannot be called, and the other tools keep working.
import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../tools/sdk/types';
import { defineTool } from '../../tools/sdk/types';
import { findToolsTool } from '../../tools/builtin/find-tools';
import { RegistryCatalog } from '../search/catalog';
import { lintTool } from './lint/lint-tool';
import { LoadedSchemas } from './loaded-schemas';
import { FIXED_TOOLS } from './loaded-schemas';
import { prepareCall } from './prepare-call';
import { ToolRegistry } from './registry';
import { MAX_SCHEMA_BYTES, MAX_TOOL_DESCRIPTION_LENGTH } from './schema-bounds';
import { ToolIndex } from '../search/tool-index';
import { testCore } from './testing/test-core';
import { showEach, toolToJson, unlistableJson } from './tool-json';
import { ArgumentValidator } from './validate';
import { builtinTools } from '../../tools/builtin/index';

const good = defineTool({
  name: 'read_notes',
  description:
    'Read the notes of the workspace.\nUse when the user asks about notes; use read_file for files.',
  parameters: { type: 'object', properties: { topic: { type: 'string', description: 'Topic, e.g. "x"' } } },
  handler: () => 'notes',
});

function script(name: string, patch: Partial<ToolSpec> = {}): ToolSpec {
  return {
    ...good,
    name: `script_${name}`,
    source: { kind: 'script', dir: `/tools/${name}`, scope: 'global', trusted: true, writable: [] },
    ...patch,
  };
}

/** A schema nested `levels` deep through `properties`, as the 3,000-level tool.json of the issue. */
function deepSchema(levels: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) node = { type: 'object', properties: { d: node } };
  return { type: 'object', properties: { root: node } };
}

function registry(): { registry: ToolRegistry; catalog: RegistryCatalog; validator: ArgumentValidator } {
  const validator = new ArgumentValidator();
  const reg = new ToolRegistry(lintTool, { checkSchema: (schema) => validator.check(schema) });
  return { registry: reg, catalog: new RegistryCatalog(reg, new LoadedSchemas()), validator };
}

describe('a tool that fails a per-tool step', () => {
  it.each([
    [
      'limits',
      'a schema 3,000 levels deep',
      script('deep', { parameters: deepSchema(3000) }),
      /nested deeper than 64/,
    ],
    [
      'limits',
      'a schema over the size limit',
      script('huge', {
        parameters: {
          type: 'object',
          properties: { a: { type: 'string', description: 'x'.repeat(MAX_SCHEMA_BYTES) } },
        },
      }),
      /larger than 512 KiB as JSON; the limit is 512 KiB/,
    ],
    [
      'limits',
      'a runaway description',
      script('chatty', { description: 'y'.repeat(MAX_TOOL_DESCRIPTION_LENGTH + 1) }),
      /description is 32769 characters; the limit is 32768/,
    ],
    [
      'definition',
      'parameters that are not an object',
      script('listy', { parameters: [] as unknown as Record<string, unknown> }),
      /parameters must be a JSON Schema object/,
    ],
    [
      'compile',
      'a schema Ajv cannot compile',
      script('badref', {
        parameters: { type: 'object', properties: { a: { $ref: '#/definitions/nowhere' } } },
      }),
      /can't resolve reference #\/definitions\/nowhere/,
    ],
    [
      'compile',
      'a pattern that is not a regular expression',
      script('badpattern', {
        parameters: { type: 'object', properties: { a: { type: 'string', pattern: '(' } } },
      }),
      /Invalid regular expression/,
    ],
  ])('is broken at %s for %s, and the others keep working', (step, _case, spec, reason) => {
    const { registry: reg, catalog } = registry();
    reg.register(good);
    expect(() => reg.register(spec)).not.toThrow();
    const entry = reg.entry(spec.name);
    expect(entry?.broken).toEqual({ step, reason: expect.stringMatching(reason) });
    expect(reg.get(spec.name)).toBeUndefined();
    expect(reg.all().map((t) => t.spec.name)).toEqual(['read_notes']);
    expect(reg.listed().map((t) => t.spec.name)).toContain(spec.name);
    expect(toolToJson(entry!)).toMatchObject({ name: spec.name, broken: { step } });
    // Nothing later walks the bad definition: the broken entry keeps an empty schema and a cut description.
    expect(entry?.spec.parameters).toEqual({ type: 'object', properties: {} });
    expect(entry?.spec.description.length).toBeLessThanOrEqual(1001);
    expect(entry?.spec.flags).toMatchObject({ alwaysAllow: false, concurrent: false });
    expect(catalog.search('read notes workspace', 5).map((h) => h.name)).toEqual(['read_notes']);
    expect(catalog.search(spec.name, 5).map((h) => h.name)).not.toContain(spec.name);
    expect(catalog.get(spec.name)).toBeUndefined();
  });

  it('is broken at lint when the linter throws on it, and only that tool', () => {
    const reg = new ToolRegistry((input) => {
      if (input.name === 'boom') throw new RangeError('Maximum call stack size exceeded');
      return [];
    });
    reg.register(good);
    reg.register(script('boom'));
    expect(reg.entry('script_boom')?.broken).toEqual({
      step: 'lint',
      reason: 'RangeError: Maximum call stack size exceeded',
    });
    expect(reg.get('read_notes')?.broken).toBeUndefined();
  });

  it('is broken at hash when its definition cannot be hashed (a built-in is not compiled at register)', () => {
    const { registry: reg } = registry();
    const odd = {
      ...good,
      name: 'odd_hash',
      parameters: { type: 'object', default: 1n },
    } as unknown as ToolSpec;
    reg.register(odd);
    expect(reg.entry('odd_hash')?.broken).toEqual({
      step: 'hash',
      reason: 'TypeError: Do not know how to serialize a BigInt',
    });
  });

  it('is broken at index when the search index fails on it; search keeps working for the rest', () => {
    class FailingIndex extends ToolIndex {
      override upsert(tool: Parameters<ToolIndex['upsert']>[0]): void {
        if (tool.name === 'script_unindexable') throw new Error('index exploded');
        super.upsert(tool);
      }
    }
    const reg = new ToolRegistry(lintTool);
    const catalog = new RegistryCatalog(reg, new LoadedSchemas(), new FailingIndex());
    reg.register(good);
    const undo = reg.register(script('unindexable'));
    // The index catches up with the first query (docs/hosts.md, "Fast start"): that is when the tool breaks.
    expect(catalog.search('notes', 5).map((h) => h.name)).toEqual(['read_notes']);
    expect(reg.entry('script_unindexable')?.broken).toEqual({
      step: 'index',
      reason: 'Error: index exploded',
    });
    expect(catalog.search('unindexable', 5).map((h) => h.name)).not.toContain('script_unindexable');
    // The source's undo still removes the entry it registered, though it was replaced by a broken one.
    undo();
    expect(reg.entry('script_unindexable')).toBeUndefined();
  });

  it('is listed as broken at list when it cannot be shown; the listing of the others goes on', () => {
    const reg = new ToolRegistry(lintTool);
    const flags = new Proxy(
      { alwaysAllow: false, concurrent: false, background: false, systemUse: false },
      {
        ownKeys: () => {
          throw new Error('flags cannot be read');
        },
      },
    );
    reg.register(good);
    reg.register(script('unshowable', { flags }));
    const listed = showEach(reg, reg.listed(), toolToJson, unlistableJson);
    expect(listed.map((t) => [t.name, t.broken?.step])).toEqual([
      ['read_notes', undefined],
      ['script_unshowable', 'list'],
    ]);
    expect(listed[1]?.broken?.reason).toBe('flags cannot be read');
    expect(reg.entry('script_unshowable')?.broken?.step).toBe('list');
  });

  it('cannot be called: the error names the step and the reason; run_tool and find_tools get no further', async () => {
    const core = testCore([good]);
    core.registry.register(script('deep', { parameters: deepSchema(3000) }));
    const outcome = await core.dispatcher.dispatch(
      { id: 'c1', name: 'script_deep', args: {} },
      { chatId: 'c', workspace: '/tmp', signal: new AbortController().signal },
    );
    expect(outcome).toMatchObject({ outcome: 'error', code: 'broken_tool' });
    expect(outcome.outcome === 'error' && outcome.message).toMatch(
      /^tool "script_deep" is broken and cannot be called \(step limits: parameter schema is nested deeper than 64 levels/,
    );
    const viaRunTool = prepareCall(
      { id: 'c2', name: 'run_tool', args: { name: 'script_deep', args: {} } },
      { registry: core.registry, validator: new ArgumentValidator() },
      null,
    );
    expect(viaRunTool).toMatchObject({ kind: 'done', outcome: { code: 'broken_tool' } });
  });

  it('is never offered by find_tools, by search, list or select:', async () => {
    const { registry: reg, catalog } = registry();
    reg.register(good);
    reg.register(script('notes_deep', { description: good.description, parameters: deepSchema(100) }));
    const ctx = { chatId: 'c', services: { catalog } } as never;
    const listed = (await findToolsTool.handler({ mode: 'list' }, ctx)) as { data: Array<{ name: string }> };
    expect(listed.data.map((t) => t.name)).toEqual(['read_notes']);
    const searched = (await findToolsTool.handler({ query: 'read notes' }, ctx)) as {
      data: Array<{ name: string }>;
    };
    expect(searched.data.map((t) => t.name)).toEqual(['read_notes']);
    const selected = (await findToolsTool.handler(
      { query: 'select:script_notes_deep,read_notes,nope' },
      ctx,
    )) as {
      data: Array<{ name: string }>;
      content: Array<{ text: string }>;
    };
    expect(selected.data.map((t) => t.name)).toEqual(['read_notes']);
    // Selected by name, a broken tool is said to be broken, with its step; an unknown name is called unknown.
    const note = selected.content[0]?.text.split('\n')[0] ?? '';
    expect(note).toMatch(/Unknown names: nope\./);
    expect(note).toMatch(/Broken, so they cannot be used: script_notes_deep \(step limits: /);
    const alone = (await findToolsTool.handler({ query: 'select:script_notes_deep' }, ctx)) as {
      content: Array<{ text: string }>;
    };
    expect(alone.content[0]?.text).toMatch(
      /^None of these tools can be loaded\. Broken, so they cannot be used/,
    );
  });

  it('comes back when its source registers a good definition again; it still holds its name meanwhile', () => {
    const { registry: reg } = registry();
    reg.register(script('flaky', { parameters: deepSchema(200) }));
    expect(reg.get('script_flaky')).toBeUndefined();
    const mcp: ToolSpec = {
      ...good,
      name: 'script_flaky',
      source: { kind: 'mcp', server: 'x', remoteName: 'y' },
    };
    expect(() => reg.register(mcp)).toThrow(/already registered by the script folder \/tools\/flaky/);
    reg.register(script('flaky'));
    expect(reg.get('script_flaky')?.broken).toBeUndefined();
  });
});

describe('built-ins', () => {
  // The registry compiles script and MCP schemas when they register; built-ins are held to it here instead.
  it('all have schemas Ajv compiles and definitions within the limits', () => {
    const { registry: reg } = registry();
    const validator = new ArgumentValidator();
    for (const tool of builtinTools()) {
      expect([tool.name, validator.check(tool.parameters)]).toEqual([tool.name, null]);
      reg.register(tool);
      expect([tool.name, reg.entry(tool.name)?.broken]).toEqual([tool.name, undefined]);
    }
  });
});

describe('the fixed set', () => {
  it('is systemUse throughout, reasoning_guide included', () => {
    const fixed = builtinTools().filter((tool) => (FIXED_TOOLS as readonly string[]).includes(tool.name));
    expect(fixed.map((tool) => tool.name).sort()).toEqual([...FIXED_TOOLS].sort());
    for (const tool of fixed) expect([tool.name, tool.flags.systemUse]).toEqual([tool.name, true]);
  });
});
