// The command, task and subagent tools through the real dispatcher, batch executor, task registry and
// process port: limits and cancels really end the process tree, and background calls still go through the gate.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backgroundCommandTool } from '../../tools/builtin/background-command';
import { backgroundSubagentsTool } from '../../tools/builtin/background-subagents';
import { cancelTaskTool } from '../../tools/builtin/cancel-task';
import type { SubagentPort } from '../../tools/sdk/chat-ports';
import { checkTaskTool } from '../../tools/builtin/check-task';
import { htmlTemplateTool } from '../../tools/builtin/html-template';
import { runCommandTool } from '../../tools/builtin/run-command';
import type { ToolSpec } from '../../tools/sdk/types';
import type { CallEvent } from '../core/dispatcher';
import type { ApprovalDecision, ApprovalRequest } from '../core/gate-port';
import { policyGate } from '../core/gate-port';
import { ProcessGroups } from './process-group';
import { processRunning, readTreePids, stubbornTreeSource, waitFor } from './process-group-testing';
import { processPort } from './process-port';
import { testCore } from '../core/testing/test-core';

let workspace: string;
let groups: ProcessGroups;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-tools-'));
  groups = new ProcessGroups();
});
afterEach(async () => {
  await groups.killAll();
  fs.rmSync(workspace, { recursive: true, force: true });
});

const scope = (extra: { signal?: AbortSignal; subagents?: SubagentPort } = {}) => ({
  chatId: 'chat-1',
  workspace,
  ...(extra.signal ? { signal: extra.signal } : {}),
  services: { processes: processPort(groups), ...(extra.subagents ? { subagents: extra.subagents } : {}) },
});

// A shell line that starts a tree ignoring SIGTERM (leader and grandchild) and writes their pids.
function stubbornTree(): { command: string; pids: () => Promise<{ leader: number; grandchild: number }> } {
  const pidFile = path.join(workspace, 'pids.json');
  fs.writeFileSync(path.join(workspace, 'tree.js'), stubbornTreeSource(pidFile));
  return { command: `"${process.execPath}" tree.js`, pids: () => readTreePids(pidFile) };
}

function recordingGate(answer: ApprovalDecision['kind'] = 'allow') {
  const asked: ApprovalRequest[] = [];
  const gate = policyGate((request) => {
    asked.push(request);
    return answer === 'allow'
      ? { kind: 'allow', scope: 'once' }
      : { kind: 'deny', message: 'denied by the user' };
  });
  return { gate, asked };
}

describe('run_command through the dispatcher', () => {
  it('runs and streams its output as call.progress events', async () => {
    const core = testCore([runCommandTool]);
    const events: CallEvent[] = [];
    core.dispatcher.on((event) => events.push(event));
    const outcome = await core.dispatcher.dispatch(
      { id: '1', name: 'run_command', args: { command: 'echo one; echo two' } },
      scope(),
    );
    expect(outcome).toMatchObject({ outcome: 'ok', text: expect.stringContaining('stdout:\none\ntwo') });
    const streamed = events
      .flatMap((e) => (e.type === 'call.progress' ? [e.update.output ?? ''] : []))
      .join('');
    expect(streamed).toBe('one\ntwo\n');
  });

  it('caps a flood of output at 1 MiB with a note of how much was cut', async () => {
    const core = testCore([runCommandTool]);
    const outcome = await core.dispatcher.dispatch(
      { id: '1', name: 'run_command', args: { command: 'head -c 3000000 /dev/zero | tr "\\0" a' } },
      scope(),
    );
    expect(outcome.outcome).toBe('ok');
    const text = outcome.outcome === 'ok' ? outcome.text : '';
    // One note, and the whole result within 1 MiB: no second cap cuts it again.
    expect(text.match(/\[output truncated: [\d,]+ bytes cut\]/g)).toEqual([
      expect.stringMatching(/^\[output truncated: 2,[45]\d\d,\d{3} bytes cut\]$/),
    ]);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024);
  });

  it('is cut at its limit and the whole process tree is gone', async () => {
    // Long enough for two node processes to start on a busy machine before the limit fires.
    const core = testCore([{ ...runCommandTool, timeoutMs: 3000 }]);
    const tree = stubbornTree();
    const t0 = Date.now();
    const call = core.dispatcher.dispatch(
      { id: '1', name: 'run_command', args: { command: tree.command } },
      scope(),
    );
    const pids = await tree.pids();
    const outcome = await call;
    expect(outcome).toMatchObject({ outcome: 'timed_out', message: 'timed out after 3 s' });
    expect(Date.now() - t0).toBeLessThan(3000 + 2000);
    expect(processRunning(pids.leader)).toBe(false);
    expect(processRunning(pids.grandchild)).toBe(false);
    expect(groups.size).toBe(0);
  });

  it('is cancelled with the turn and the whole process tree is gone', async () => {
    const core = testCore([runCommandTool]);
    const tree = stubbornTree();
    const turn = new AbortController();
    const call = core.dispatcher.dispatch(
      { id: '1', name: 'run_command', args: { command: tree.command } },
      scope({ signal: turn.signal }),
    );
    const pids = await tree.pids();
    turn.abort();
    expect(await call).toMatchObject({ outcome: 'cancelled' });
    expect(processRunning(pids.leader)).toBe(false);
    expect(processRunning(pids.grandchild)).toBe(false);
  });
});

describe('background_command as a task', () => {
  it('asks the gate, returns a task id at once, and keeps the streamed output as the task tail', async () => {
    const { gate, asked } = recordingGate();
    const core = testCore([backgroundCommandTool, checkTaskTool], { gate });
    const [started] = await core.executor.run(
      [
        {
          id: '1',
          name: 'background_command',
          args: { command: 'echo first; sleep 0.5; echo second', timeout_min: 5 },
        },
      ],
      scope(),
    );
    expect(asked.map((r) => [r.tool, r.args.command])).toEqual([
      ['background_command', 'echo first; sleep 0.5; echo second'],
    ]);
    expect(started?.outcome).toMatchObject({
      outcome: 'ok',
      data: { taskId: expect.stringMatching(/^task_/) },
    });
    const taskId = (started?.outcome as { data: { taskId: string } }).data.taskId;
    expect(core.tasks.get(taskId)).toMatchObject({ status: 'running', limitMs: 5 * 60_000 });
    await waitFor(() => core.tasks.get(taskId)?.outputTail === 'first\n', 5000, 'first line in the tail');
    // check_task is alwaysAllow: it does not ask, and waits for the task to finish.
    const [checked] = await core.executor.run(
      [{ id: '2', name: 'check_task', args: { task_id: taskId, wait_s: 10 } }],
      scope(),
    );
    expect(asked).toHaveLength(1);
    expect(checked?.outcome).toMatchObject({
      outcome: 'ok',
      text: expect.stringMatching(/succeeded[^]*output tail:\nfirst\nsecond[^]*result:\nexit code 0/),
    });
  });

  it('starts no task when the gate denies it', async () => {
    const { gate, asked } = recordingGate('deny');
    const core = testCore([backgroundCommandTool], { gate });
    const marker = path.join(workspace, 'ran');
    const [result] = await core.executor.run(
      [{ id: '1', name: 'background_command', args: { command: `touch ${marker}` } }],
      scope(),
    );
    expect(asked).toHaveLength(1);
    expect(result?.outcome).toMatchObject({ outcome: 'denied' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(core.tasks.list()).toEqual([]);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('is stopped at its task limit, not the turn, and the tree is gone', async () => {
    const core = testCore([{ ...backgroundCommandTool, taskLimitMs: () => 3000 }]);
    const tree = stubbornTree();
    const turn = new AbortController();
    const [started] = await core.executor.run(
      [{ id: '1', name: 'background_command', args: { command: tree.command } }],
      scope({ signal: turn.signal }),
    );
    const taskId = (started?.outcome as { data: { taskId: string } }).data.taskId;
    const pids = await tree.pids();
    // Ending the turn does not touch a background task.
    turn.abort();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(core.tasks.get(taskId)?.status).toBe('running');
    const done = await core.tasks.wait(taskId);
    expect(done).toMatchObject({ status: 'timed_out', error: 'timed out after 3 s' });
    expect(processRunning(pids.leader)).toBe(false);
    expect(processRunning(pids.grandchild)).toBe(false);
  });

  it('is cancelled by cancel_task, which asks the gate, and the tree is gone', async () => {
    const { gate, asked } = recordingGate();
    const core = testCore([backgroundCommandTool, cancelTaskTool], { gate });
    const tree = stubbornTree();
    const [started] = await core.executor.run(
      [{ id: '1', name: 'background_command', args: { command: tree.command } }],
      scope(),
    );
    const taskId = (started?.outcome as { data: { taskId: string } }).data.taskId;
    const pids = await tree.pids();
    const [cancelled] = await core.executor.run(
      [{ id: '2', name: 'cancel_task', args: { task_id: taskId } }],
      scope(),
    );
    expect(asked.map((r) => r.tool)).toEqual(['background_command', 'cancel_task']);
    expect(cancelled?.outcome).toMatchObject({
      outcome: 'ok',
      text: expect.stringMatching(new RegExp(`^cancelled task ${taskId}`)),
    });
    expect(core.tasks.get(taskId)?.status).toBe('cancelled');
    expect(processRunning(pids.leader)).toBe(false);
    expect(processRunning(pids.grandchild)).toBe(false);
  });
});

describe('background_subagents as a task', () => {
  it('returns a task id, runs the legs in it and keeps their labelled answers as the result', async () => {
    const subagents: SubagentPort = {
      run: async (_parent, task) => ({
        chatId: `child-${task.title}`,
        status: 'completed',
        text: `answer of ${task.title}`,
      }),
    };
    const { gate, asked } = recordingGate();
    const core = testCore([backgroundSubagentsTool], { gate });
    const [started] = await core.executor.run(
      [
        {
          id: '1',
          name: 'background_subagents',
          args: {
            tasks: [
              { prompt: 'a', title: 'A' },
              { prompt: 'b', title: 'B' },
            ],
          },
        },
      ],
      scope({ subagents }),
    );
    expect(asked.map((r) => r.tool)).toEqual(['background_subagents']);
    const taskId = (started?.outcome as { data: { taskId: string } }).data.taskId;
    expect(core.tasks.get(taskId)?.limitMs).toBe(60 * 60_000);
    const done = await core.tasks.wait(taskId);
    expect(done?.status).toBe('succeeded');
    expect(done?.result).toBe(
      '2 subagents: 2 completed\n\n## 1. A (completed)\nanswer of A\n\n## 2. B (completed)\nanswer of B',
    );
  });
});

describe('html_template through the dispatcher', () => {
  it('is cut at its limit while rendering, and writes nothing', async () => {
    const core = testCore([{ ...htmlTemplateTool, timeoutMs: 500 } satisfies ToolSpec]);
    const outcome = await core.dispatcher.dispatch(
      {
        id: '1',
        name: 'html_template',
        args: { output: 'slow.html', template: '{% for i in (1..20000000) %}{{ i }}{% endfor %}' },
      },
      scope(),
    );
    expect(outcome).toMatchObject({ outcome: 'timed_out', message: 'timed out after 0.5 s' });
    expect(core.readLog()).not.toContain('abandoned handler');
    expect(fs.existsSync(path.join(workspace, 'slow.html'))).toBe(false);
  });
});
