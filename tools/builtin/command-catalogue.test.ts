import { describe, expect, it } from 'vitest';
import { builtinTools } from './index';
import type { JsonSchema } from '../sdk/types';
import { DEFAULT_TOOL_TIMEOUT } from '../sdk/types';

const MIN = 60_000;

// docs/dispatch.md ("Limits of the built-in tools") and issue 7: flags and limits of the command, task, subagent, open and template tools, as registered.
const TABLE = [
  { name: 'run_command', flags: {}, timeoutMs: 30 * MIN, background: false },
  {
    name: 'background_command',
    flags: { background: true },
    timeoutMs: DEFAULT_TOOL_TIMEOUT,
    background: true,
  },
  { name: 'subagents', flags: {}, timeoutMs: 30 * MIN, background: false },
  {
    name: 'background_subagents',
    flags: { background: true },
    timeoutMs: DEFAULT_TOOL_TIMEOUT,
    background: true,
  },
  {
    name: 'check_task',
    flags: { alwaysAllow: true, concurrent: true },
    timeoutMs: DEFAULT_TOOL_TIMEOUT,
    background: false,
  },
  { name: 'cancel_task', flags: {}, timeoutMs: DEFAULT_TOOL_TIMEOUT, background: false },
  { name: 'open_file', flags: {}, timeoutMs: 10_000, background: false },
  { name: 'html_template', flags: {}, timeoutMs: 30_000, background: false },
] as const;

describe('the registered command, task, subagent, open and template tools', () => {
  const tools = new Map(builtinTools().map((tool) => [tool.name, tool]));

  it.each(TABLE.map((row) => [row.name, row] as const))(
    '%s has the flags and limit of the table',
    (name, row) => {
      const tool = tools.get(name);
      expect(tool, `${name} is registered`).toBeDefined();
      expect(tool?.source).toEqual({ kind: 'builtin' });
      expect(tool?.flags).toEqual({
        alwaysAllow: false,
        concurrent: false,
        background: false,
        systemUse: false,
        ...row.flags,
      });
      expect(tool?.timeoutMs).toBe(row.timeoutMs);
      expect(tool?.taskLimitMs !== undefined).toBe(row.background);
    },
  );

  it.each(['background_command', 'background_subagents'])(
    '%s takes timeout_min 1-60, default 60, as its task limit',
    (name) => {
      const tool = tools.get(name);
      const schema = (tool?.parameters.properties as Record<string, JsonSchema>).timeout_min;
      expect(schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 60, default: 60 });
      expect(tool?.taskLimitMs?.({})).toBe(60 * MIN);
      expect(tool?.taskLimitMs?.({ timeout_min: 1 })).toBe(MIN);
      expect(tool?.taskLimitMs?.({ timeout_min: 60 })).toBe(60 * MIN);
    },
  );
});
