import { describe, expect, it } from 'vitest';
import { backgroundSubagentsTool } from './background-subagents';
import type { SubagentAnswer, SubagentPort, SubagentTask } from '../sdk/chat-ports';
import { MAX_PARALLEL_LEGS } from './subagent-legs';
import { subagentsTool } from './subagents';
import { testContext } from '../sdk/testing/tool-context';
import type { ToolResult } from '../sdk/types';

type Script = (task: SubagentTask, signal: AbortSignal) => Promise<SubagentAnswer>;

// The real port interface, answered from a script: records each leg's start, end and the signal it got.
function scriptedPort(script: Script) {
  let running = 0;
  const legs: Array<{ title: string; startedAt: number; endedAt: number; signal: AbortSignal }> = [];
  const stats = { maxRunning: 0, parents: new Set<string>() };
  const port: SubagentPort = {
    async run(parentChatId, task, signal) {
      stats.parents.add(parentChatId);
      const leg = { title: task.title, startedAt: Date.now(), endedAt: 0, signal };
      legs.push(leg);
      running++;
      stats.maxRunning = Math.max(stats.maxRunning, running);
      try {
        return await script(task, signal);
      } finally {
        running--;
        leg.endedAt = Date.now();
      }
    },
  };
  return { port, legs, stats };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A leg that answers after `ms`, or ends as cancelled when its signal fires first (as a child chat does).
function answerAfter(ms: number): Script {
  return (task, signal) =>
    new Promise((resolve) => {
      const timer = setTimeout(
        () =>
          resolve({ chatId: `child-${task.title}`, status: 'completed', text: `answer of ${task.title}` }),
        ms,
      );
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve({ chatId: `child-${task.title}`, status: 'cancelled', text: '' });
      });
    });
}

const text = (result: ToolResult) =>
  typeof result === 'string' ? result : result.content.map((p) => ('text' in p ? p.text : '')).join('');
const tasks = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ prompt: `do part ${i + 1}`, title: `Part ${i + 1}` }));

describe('subagents', () => {
  it('runs at most 3 legs at once and returns every answer labelled by its title, in order', async () => {
    const { port, legs, stats } = scriptedPort(answerAfter(80));
    const { ctx, progress } = testContext({ services: { subagents: port } });
    const result = await subagentsTool.handler({ tasks: [...tasks(6), { prompt: 'untitled work' }] }, ctx);
    expect(MAX_PARALLEL_LEGS).toBe(3);
    expect(stats.maxRunning).toBe(3);
    expect(legs).toHaveLength(7);
    expect([...stats.parents]).toEqual(['test-chat']);
    expect(text(result)).toBe(
      [
        '7 subagents: 7 completed',
        ...tasks(6).map((t, i) => `## ${i + 1}. ${t.title} (completed)\nanswer of ${t.title}`),
        '## 7. Task 7 (completed)\nanswer of Task 7',
      ].join('\n\n'),
    );
    expect(progress.filter((u) => u.message?.startsWith('subagent '))).toHaveLength(7);
  });

  it('reports a failed or throwing leg and still returns the others', async () => {
    const { port } = scriptedPort(async (task) => {
      if (task.title === 'Part 2')
        return { chatId: 'c2', status: 'failed', text: '', error: 'provider error 500' };
      if (task.title === 'Part 3') throw new Error('child chat could not start');
      return { chatId: 'c', status: 'completed', text: `answer of ${task.title}` };
    });
    const result = await subagentsTool.handler(
      { tasks: tasks(3) },
      testContext({ services: { subagents: port } }).ctx,
    );
    expect(text(result)).toBe(
      '3 subagents: 1 completed, 2 failed\n\n' +
        '## 1. Part 1 (completed)\nanswer of Part 1\n\n' +
        '## 2. Part 2 (failed: provider error 500)\n(no answer)\n\n' +
        '## 3. Part 3 (failed: child chat could not start)\n(no answer)',
    );
    expect(result).toMatchObject({
      data: { legs: [{ status: 'completed' }, { status: 'failed' }, { status: 'failed' }] },
    });
  });

  it('is an error when no leg answered', async () => {
    const { port } = scriptedPort(async () => ({
      chatId: 'c',
      status: 'failed',
      text: '',
      error: 'no provider',
    }));
    await expect(
      subagentsTool.handler({ tasks: tasks(2) }, testContext({ services: { subagents: port } }).ctx),
    ).rejects.toMatchObject({
      code: 'subagents_failed',
      message: expect.stringContaining('2 subagents: 2 failed'),
    });
  });

  it('says clearly that a child chat cannot start subagents', async () => {
    await expect(subagentsTool.handler({ tasks: tasks(1) }, testContext().ctx)).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('a subagent cannot start subagents of its own'),
    });
  });

  it('rejects bad tasks naming the parameter, without starting a leg', async () => {
    const { port, legs } = scriptedPort(answerAfter(1));
    const { ctx } = testContext({ services: { subagents: port } });
    for (const bad of [undefined, 'do it', [], tasks(11)]) {
      await expect(subagentsTool.handler({ tasks: bad }, ctx)).rejects.toThrow(
        /^`tasks` must be an array of 1 to 10/,
      );
    }
    await expect(
      subagentsTool.handler({ tasks: [{ prompt: 'ok' }, { title: 'no prompt' }] }, ctx),
    ).rejects.toThrow(/^`tasks\.1\.prompt` must be a non-empty string/);
    expect(legs).toHaveLength(0);
  });

  it('counts a waiting leg against the shared limit: legs still running near the deadline are stopped, finished answers return', async () => {
    // Each leg needs 500 ms and the call has 800: legs 1-3 finish, leg 4 waits 500 ms for a slot and is stopped.
    const { port, legs } = scriptedPort(answerAfter(500));
    const t0 = Date.now();
    const deadline = t0 + 800;
    const { ctx } = testContext({ services: { subagents: port }, deadline });
    const result = await subagentsTool.handler({ tasks: tasks(4) }, ctx);
    expect(Date.now()).toBeLessThan(deadline);
    expect(text(result)).toMatch(/^4 subagents: 3 completed, 1 timed out/);
    expect(text(result)).toContain("## 4. Part 4 (timed out: stopped at the call's time limit)");
    const fourth = legs.find((leg) => leg.title === 'Part 4');
    expect(fourth?.startedAt).toBeGreaterThanOrEqual(t0 + 450);
    expect(fourth?.signal.aborted).toBe(true);
  });

  it('on cancel aborts the running legs and starts no more', async () => {
    const { port, legs } = scriptedPort(answerAfter(10_000));
    const controller = new AbortController();
    const { ctx } = testContext({ services: { subagents: port }, signal: controller.signal });
    const call = subagentsTool.handler({ tasks: tasks(5) }, ctx);
    await sleep(50);
    controller.abort(new Error('cancelled by the user'));
    const t0 = Date.now();
    await expect(call).rejects.toMatchObject({
      code: 'subagents_failed',
      message: expect.stringContaining('5 cancelled'),
    });
    // The legs wait 10 s: settling well before that shows the cancel reached them (generous for a loaded CI).
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(legs).toHaveLength(3);
    expect(legs.every((leg) => leg.signal.aborted)).toBe(true);
  });
});

describe('background_subagents', () => {
  it('runs the same legs inside its task and reports them as progress', async () => {
    const { port, stats } = scriptedPort(answerAfter(20));
    const { ctx, progress } = testContext({ services: { subagents: port } });
    const result = await backgroundSubagentsTool.handler({ tasks: tasks(4), timeout_min: 10 }, ctx);
    expect(stats.maxRunning).toBe(3);
    expect(text(result)).toMatch(/^4 subagents: 4 completed/);
    expect(progress[0]?.message).toBe('starting 4 subagent(s): Part 1, Part 2, Part 3, Part 4');
    expect(backgroundSubagentsTool.taskLimitMs?.({ timeout_min: 10 })).toBe(10 * 60_000);
  });
});
