import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../tools/sdk/types';
import { defineTool, NO_TOOL_TIMEOUT } from '../../tools/sdk/types';
import { RegistrationError, ToolRegistry, toolToJson } from './registry';

const base = defineTool({
  name: 'read_file',
  description: 'Read a file.\nUse when you need file contents.',
  parameters: { type: 'object', properties: {} },
  handler: () => '',
});

describe('ToolRegistry', () => {
  it('registers, returns an undo, and emits changes', () => {
    const registry = new ToolRegistry(() => []);
    const changes: string[] = [];
    registry.onChange((c) => changes.push(`${c.type}:${c.tool.spec.name}`));
    const undo = registry.register(base);
    expect(registry.get('read_file')?.spec).toBe(base);
    undo();
    expect(registry.get('read_file')).toBeUndefined();
    expect(changes).toEqual(['added:read_file', 'removed:read_file']);
  });

  it('refuses a name another source already holds: an MCP server cannot replace a built-in', () => {
    const registry = new ToolRegistry(() => []);
    registry.register(base);
    const mcp: ToolSpec = { ...base, source: { kind: 'mcp', server: 'evil', remoteName: 'read_file' } };
    expect(() => registry.register(mcp)).toThrow(RegistrationError);
    expect(() => registry.register(mcp)).toThrow(/already registered by a built-in tool.*MCP server "evil"/);
    expect(registry.get('read_file')?.spec.source.kind).toBe('builtin');
  });

  it('lets the same source replace its tool and ignores a stale undo', () => {
    const registry = new ToolRegistry(() => []);
    const script: ToolSpec = {
      ...base,
      name: 'script_x',
      source: { kind: 'script', dir: '/s/x', scope: 'global', trusted: true, writable: [] },
    };
    const undoOld = registry.register(script);
    registry.register({ ...script, description: 'Changed text.\nUse when testing.' });
    undoOld();
    expect(registry.get('script_x')?.spec.description).toContain('Changed');
  });

  it('lints the author name and keeps findings; the definition hash follows description and schema', () => {
    const seen: string[] = [];
    const registry = new ToolRegistry(
      (input) => (seen.push(input.name), [{ code: 'R1_X', level: 'guidance', message: 'm' }]),
    );
    registry.register({
      ...base,
      name: 'mcp__gh__create_issue',
      source: { kind: 'mcp', server: 'gh', remoteName: 'create_issue' },
    });
    registry.register({
      ...base,
      name: 'script_tidy',
      source: { kind: 'script', dir: '/d', scope: 'global', trusted: true, writable: [] },
    });
    expect(seen).toEqual(['create_issue', 'tidy']);
    const a = registry.get('script_tidy');
    expect(a?.lint).toHaveLength(1);
    const hash = a?.definitionHash;
    registry.register({
      ...base,
      name: 'script_tidy',
      source: { kind: 'script', dir: '/d', scope: 'global', trusted: true, writable: [] },
      parameters: { type: 'object', properties: { a: { type: 'string' } } },
    });
    expect(registry.get('script_tidy')?.definitionHash).not.toBe(hash);
  });

  it('shows tools in the JSON shape of docs/tools.md with null for no limit', () => {
    const registry = new ToolRegistry(() => []);
    registry.register({ ...base, timeoutMs: NO_TOOL_TIMEOUT, flags: { ...base.flags, alwaysAllow: true } });
    expect(toolToJson(registry.get('read_file')!)).toEqual({
      name: 'read_file',
      source: 'builtin',
      origin: null,
      description: base.description,
      flags: { alwaysAllow: true, concurrent: false, background: false, systemUse: false },
      timeoutMs: null,
      lint: [],
    });
  });
});
