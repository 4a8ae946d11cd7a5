// `agenvoy chat` runs no background tasks, so its find_tools never lists, finds or loads the background tools: the
// model is offered only what this host can run (docs/hosts.md, "What each host offers").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatWithCalls } from './testing/cli-harness';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function place() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-offers-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-offers-ws-'));
  dirs.push(home, cwd);
  return { home, cwd };
}

describe('headless find_tools', () => {
  it('lists, finds and loads no background tool, and says a selected one is not offered here', async () => {
    const run = await chatWithCalls(
      [
        { name: 'find_tools', args: { mode: 'list' } },
        {
          name: 'find_tools',
          args: { query: 'start a long running command as a background task', limit: 50 },
        },
        { name: 'find_tools', args: { query: 'select:background_command,run_command' } },
        { name: 'background_command', args: { command: 'sleep 1' } },
        // A misspelt name is pointed only at tools this host runs.
        { name: 'background_comand', args: { command: 'sleep 1' } },
      ],
      place(),
      'deny',
    );
    expect(run.code).toBe(0);
    const [list, search, select, call] = [0, 1, 2, 3].map((i) => run.toolResults[`call_${i}`] ?? '');
    expect(list).toContain('run_command: ');
    expect(search).toContain('"name": "run_command"');
    // Other tools' descriptions may name them; no entry is one.
    expect(list).not.toMatch(/^background_(command|subagents):/m);
    expect(search).not.toMatch(/"name": "background_(command|subagents)"/);
    expect(select).toContain(
      'Not offered here: background_command (not available here: this host cannot run it).',
    );
    expect(select).toContain('"name": "run_command"');
    expect(select).not.toContain('"name": "background_command"');
    // And a call to it is refused without asking.
    expect(call).toContain('background_command is not available here');
    const misspelt = run.toolResults.call_4 ?? '';
    expect(misspelt).toContain('unknown tool "background_comand"');
    expect(misspelt).not.toContain('Did you mean background_command');
  });
});
