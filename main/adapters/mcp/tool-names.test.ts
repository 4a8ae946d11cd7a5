import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME, mcpToolNames, sanitiseName } from './tool-names';

describe('mcpToolNames', () => {
  it('prefixes mcp__<server>__ and keeps names that fit unchanged', () => {
    expect([...mcpToolNames('github', ['create_issue', 'get-sum'])]).toEqual([
      ['create_issue', 'mcp__github__create_issue'],
      ['get-sum', 'mcp__github__get-sum'],
    ]);
  });

  it('sanitises server and tool names to [A-Za-z0-9_-]', () => {
    expect(sanitiseName('my server.v2/é')).toBe('my_server_v2__');
    expect(mcpToolNames('my server', ['read file']).get('read file')).toBe('mcp__my_server__read_file');
  });

  it('keeps long names within 64 characters and unique even when they share the cut prefix', () => {
    const long = 'a'.repeat(70);
    const names = mcpToolNames('server', [`${long}_one`, `${long}_two`]);
    const [one, two] = [...names.values()];
    expect(one?.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
    expect(two?.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
    expect(one).not.toBe(two);
    expect(one).toMatch(/^mcp__server__a+_[0-9a-f]{8}$/);
    // Stable across calls, so approvals tied to the name survive a reconnect.
    expect(mcpToolNames('server', [`${long}_two`]).get(`${long}_two`)).toBe(two);
  });

  it('gives a sanitised name that collides with a sibling a hash, never taking the plain one', () => {
    const names = mcpToolNames('s', ['get.sum', 'get_sum']);
    expect(names.get('get_sum')).toBe('mcp__s__get_sum');
    expect(names.get('get.sum')).toMatch(/^mcp__s__get_sum_[0-9a-f]{8}$/);
  });
});
