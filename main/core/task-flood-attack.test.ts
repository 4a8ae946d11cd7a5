// A model starting background tasks without end (docs/robustness.md, "Background tasks are bounded"): one reply may
// hold up to 1,000 calls, and every `background_command` or `background_subagents` call the gate lets through (a
// standing rule, `--approve allow`) started a task at once, each with its own process group or three child turns, so
// one reply could start a thousand processes or three thousand model turns. A chat now runs at most
// MAX_RUNNING_TASKS at once; a call past that is refused, naming the bound and how to free a place.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../app';
import { createCore } from '../app';
import { policyGate } from './gate-port';
import { MAX_RUNNING_TASKS } from './task-registry';

let core: Core | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await core?.close();
  core = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('background tasks started without end', () => {
  it('one reply of many background_command calls starts at most the bound; the rest are refused', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-'));
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ws-'));
    dirs.push(home, workspace);
    core = await createCore({ home, workspace, gate: policyGate('allow'), healer: null, mcp: 'off' });
    const calls = Array.from({ length: MAX_RUNNING_TASKS + 8 }, (_, i) => ({
      id: `bg_${i}`,
      name: 'background_command',
      args: { command: 'sleep 30' },
    }));
    const results = await core.executor.run(calls, { chatId: 'flood', workspace });
    const started = results.filter((r) => r.outcome.outcome === 'ok');
    const refused = results.filter((r) => r.outcome.outcome !== 'ok');
    expect(started).toHaveLength(MAX_RUNNING_TASKS);
    expect(core.tasks.list({ chatId: 'flood' }).filter((t) => t.status === 'running')).toHaveLength(
      MAX_RUNNING_TASKS,
    );
    expect(refused).toHaveLength(8);
    expect(refused[0]?.outcome).toMatchObject({ outcome: 'error', code: 'too_many_tasks' });
    // Another chat is not held back by this one's tasks.
    const [other] = await core.executor.run([{ ...calls[0]!, id: 'other' }], { chatId: 'other', workspace });
    expect(other?.outcome.outcome).toBe('ok');
    // A finished task frees its place.
    const first = (started[0]?.outcome as { data: { taskId: string } }).data.taskId;
    core.tasks.cancel(first);
    await core.tasks.wait(first);
    const [again] = await core.executor.run([{ ...calls[0]!, id: 'again' }], { chatId: 'flood', workspace });
    expect(again?.outcome.outcome).toBe('ok');
  }, 60_000);
});
