import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../tools/sdk/types';
import { CredentialError, defineTool } from '../../tools/sdk/types';
import { runToolTool } from '../../tools/builtin/run-tool';
import type { ApprovalRequest } from './gate-port';
import { policyGate } from './gate-port';
import { HealBudget } from './heal-budget';
import { testCore } from './testing/test-core';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

const noArgs = { type: 'object', properties: {}, additionalProperties: true };

function timedTool(name: string, flags: Partial<ToolSpec['flags']>, ms: number, log: string[]): ToolSpec {
  return defineTool({
    name,
    description: `${name}.\nUse when testing.`,
    parameters: noArgs,
    flags: { alwaysAllow: true, ...flags },
    handler: async (args, ctx) => {
      log.push(`start ${name}:${String(args.n ?? '')}`);
      await sleep(ms, ctx.signal);
      log.push(`end ${name}:${String(args.n ?? '')}`);
      return `${name}:${String(args.n ?? '')}`;
    },
  });
}

const scope = { chatId: 'c1', workspace: '/tmp' };

describe('BatchExecutor', () => {
  it('commits results in call order whatever order they finish in', async () => {
    const log: string[] = [];
    const core = testCore([
      timedTool('slow_read', { concurrent: true }, 120, log),
      timedTool('fast_read', { concurrent: true }, 10, log),
    ]);
    const results = await core.executor.run(
      [
        { id: 'a', name: 'slow_read', args: { n: 1 } },
        { id: 'b', name: 'fast_read', args: { n: 2 } },
      ],
      scope,
    );
    expect(results.map((r) => r.callId)).toEqual(['a', 'b']);
    expect(log.indexOf('end fast_read:2')).toBeLessThan(log.indexOf('end slow_read:1'));
  });

  it('fans out concurrent calls 8 at a time', async () => {
    const log: string[] = [];
    const core = testCore([timedTool('wait_read', { concurrent: true }, 200, log)]);
    const calls = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, name: 'wait_read', args: { n: i } }));
    let inFlight = 0;
    let peak = 0;
    core.dispatcher.on((e) => {
      if (e.type === 'call.started') peak = Math.max(peak, ++inFlight);
      if (e.type === 'call.finished') inFlight--;
    });
    const started = Date.now();
    const results = await core.executor.run(calls, scope);
    const wall = Date.now() - started;
    expect(results.every((r) => r.outcome.outcome === 'ok')).toBe(true);
    expect(peak).toBe(8);
    expect(wall).toBeGreaterThanOrEqual(590);
    expect(wall).toBeLessThan(2000);
  });

  it('runs non-concurrent calls one at a time in call order, alongside the fan-out', async () => {
    const log: string[] = [];
    const core = testCore([
      timedTool('write_step', {}, 40, log),
      timedTool('read_step', { concurrent: true }, 150, log),
    ]);
    await core.executor.run(
      [
        { id: '1', name: 'write_step', args: { n: 1 } },
        { id: '2', name: 'read_step', args: { n: 2 } },
        { id: '3', name: 'write_step', args: { n: 3 } },
      ],
      scope,
    );
    const writes = log.filter((l) => l.includes('write_step'));
    expect(writes).toEqual([
      'start write_step:1',
      'end write_step:1',
      'start write_step:3',
      'end write_step:3',
    ]);
    // The fan-out overlapped the serial lane: the read ended after the serial lane started.
    expect(log.indexOf('start read_step:2')).toBeLessThan(log.indexOf('end write_step:1'));
  });

  it('starts background calls as tasks that answer at once and outlive the turn', async () => {
    const log: string[] = [];
    const bg = { ...timedTool('long_job', { background: true }, 1500, log), taskLimitMs: () => 5000 };
    const core = testCore([bg]);
    const turn = new AbortController();
    const started = Date.now();
    const [result] = await core.executor.run([{ id: '1', name: 'long_job', args: {} }], {
      ...scope,
      signal: turn.signal,
    });
    // The job takes 1.5 s; the call answered long before, without waiting for it.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result?.outcome.outcome).toBe('ok');
    const taskId = (result?.outcome as { data: { taskId: string } }).data.taskId;
    turn.abort();
    const task = await core.tasks.wait(taskId);
    expect(task).toMatchObject({ status: 'succeeded', result: 'long_job:', limitMs: 5000 });
  });

  it('takes one gate request for the batch and unwraps run_tool so the inner tool is gated', async () => {
    const log: string[] = [];
    const requests: ApprovalRequest[][] = [];
    const gated = timedTool('delete_thing', { alwaysAllow: false }, 1, log);
    const core = testCore([gated, timedTool('read_thing', {}, 1, log), runToolTool], {
      gate: {
        async decide(batch) {
          requests.push(batch);
          return batch.map(() => ({ kind: 'deny' as const, reason: 'no' }));
        },
      },
    });
    const results = await core.executor.run(
      [
        { id: '1', name: 'run_tool', args: { name: 'delete_thing', args: { n: 1 } } },
        { id: '2', name: 'read_thing', args: {} },
        { id: '3', name: 'delete_thing', args: { n: 2 } },
      ],
      scope,
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]?.map((r) => r.tool)).toEqual(['delete_thing', 'delete_thing']);
    expect(results.map((r) => [r.tool, r.outcome.outcome])).toEqual([
      ['delete_thing', 'denied'],
      ['read_thing', 'ok'],
      ['delete_thing', 'denied'],
    ]);
    expect(log.some((l) => l.includes('delete_thing'))).toBe(false);
  });

  it('stops the turn when the user picks stop, cancelling the calls that did not run', async () => {
    const log: string[] = [];
    let stopped = false;
    const core = testCore(
      [timedTool('risky_op', { alwaysAllow: false }, 1, log), timedTool('read_op', {}, 1, log)],
      {
        gate: policyGate(() => ({ kind: 'stop' })),
      },
    );
    const results = await core.executor.run(
      [
        { id: '1', name: 'read_op', args: {} },
        { id: '2', name: 'risky_op', args: {} },
      ],
      { ...scope, stopTurn: () => (stopped = true) },
    );
    expect(stopped).toBe(true);
    expect(results.map((r) => r.outcome.outcome)).toEqual(['cancelled', 'denied']);
    expect(log).toEqual([]);
  });

  it('runs a valid call to a tool the chat has not loaded at once, direct or through run_tool, and loads it', async () => {
    const log: string[] = [];
    const core = testCore([timedTool('lazy_tool', {}, 1, log), timedTool('other_tool', {}, 1, log)]);
    const lazy = { chatId: 'c1', schemas: core.schemas };
    const results = await core.executor.run(
      [
        { id: '1', name: 'lazy_tool', args: { n: 1 } },
        { id: '2', name: 'run_tool', args: { name: 'other_tool', args: { n: 2 } } },
      ],
      { ...scope, lazy },
    );
    expect(results).toMatchObject([
      { tool: 'lazy_tool', outcome: { outcome: 'ok', text: 'lazy_tool:1' } },
      { tool: 'other_tool', outcome: { outcome: 'ok', text: 'other_tool:2' } },
    ]);
    expect(log).toEqual(['start lazy_tool:1', 'end lazy_tool:1', 'start other_tool:2', 'end other_tool:2']);
    expect(core.schemas.loaded('c1')).toEqual(['lazy_tool', 'other_tool']);
  });

  it('answers invalid arguments for a tool the chat has not loaded with its schema instead of running it', async () => {
    let ran = 0;
    const strict = defineTool({
      name: 'strict_tool',
      description: 'strict tool.\nUse when testing.',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string', description: 'A path, e.g. "a.txt".' } },
        required: ['path'],
      },
      flags: { alwaysAllow: true },
      handler: () => `ran ${++ran}`,
    });
    const core = testCore([strict]);
    const lazy = { chatId: 'c1', schemas: core.schemas };
    const queued: unknown[] = [];
    core.dispatcher.on((e) => {
      if (e.type === 'call.queued') queued.push(e.args);
    });
    const [direct, wrapped] = await core.executor.run(
      [
        { id: '1', name: 'strict_tool', args: { file: 'a.txt' } },
        { id: '2', name: 'run_tool', args: { name: 'strict_tool', args: { file: 'b.txt' } } },
      ],
      { ...scope, lazy },
    );
    expect(ran).toBe(0);
    expect(direct?.outcome).toMatchObject({ outcome: 'error', code: 'not_loaded' });
    const message = (direct?.outcome as { message: string }).message;
    expect(message).toContain('strict_tool was not run');
    expect(message).toContain('missing required field `path`');
    expect(message).toContain('"required":["path"]');
    // Loaded by the first call: the second is an ordinary invalid call.
    expect(wrapped).toMatchObject({ tool: 'strict_tool', outcome: { code: 'invalid_arguments' } });
    expect(core.schemas.loaded('c1')).toEqual(['strict_tool']);
    // The calls' cards show what the model sent.
    expect(queued).toEqual([{ file: 'a.txt' }, { file: 'b.txt' }]);
  });

  it('asks the gate for a tool loaded by its call; denied, it does not run', async () => {
    const log: string[] = [];
    const asked: string[] = [];
    const core = testCore([timedTool('risky_lazy', { alwaysAllow: false }, 1, log)], {
      gate: policyGate((request) => {
        asked.push(request.tool);
        return { kind: 'deny', message: 'denied by the user' };
      }),
    });
    const lazy = { chatId: 'c1', schemas: core.schemas };
    const [result] = await core.executor.run([{ id: '1', name: 'risky_lazy', args: {} }], { ...scope, lazy });
    expect(asked).toEqual(['risky_lazy']);
    expect(result?.outcome).toMatchObject({ outcome: 'denied' });
    expect(log).toEqual([]);
  });

  it('heals a structured credential failure by prompting and retrying, at most twice per tool per turn', async () => {
    let stored = 0;
    let attempts = 0;
    const needsKey = defineTool({
      name: 'needs_key',
      description: 'needs key.\nUse when testing.',
      parameters: noArgs,
      flags: { alwaysAllow: true },
      handler: () => {
        attempts++;
        if (stored < 5) throw new CredentialError('API_TOKEN', 'missing');
        return 'ok';
      },
    });
    const prompts: string[] = [];
    const core = testCore([needsKey], {
      healer: {
        async heal(request) {
          prompts.push(request.key);
          stored++;
          return true;
        },
      },
    });
    const heal = new HealBudget();
    const [result] = await core.executor.run([{ id: '1', name: 'needs_key', args: {} }], { ...scope, heal });
    expect(prompts).toEqual(['API_TOKEN', 'API_TOKEN']);
    expect(attempts).toBe(3);
    expect(result?.outcome).toMatchObject({ outcome: 'error', code: 'credential_missing' });
    expect((result?.outcome as { message: string }).message).toContain('already asked 2 times');
    // The budget is per turn: the same turn gets no more prompts.
    await core.executor.run([{ id: '2', name: 'needs_key', args: {} }], { ...scope, heal });
    expect(prompts).toHaveLength(2);
  });

  it('retries after a successful heal and returns the success', async () => {
    let key: string | undefined;
    const needsKey = defineTool({
      name: 'needs_key',
      description: 'needs key.\nUse when testing.',
      parameters: noArgs,
      flags: { alwaysAllow: true },
      handler: () => {
        if (!key) throw new CredentialError('API_TOKEN', 'missing');
        return 'worked';
      },
    });
    const core = testCore([needsKey], {
      healer: {
        async heal() {
          key = 'x';
          return true;
        },
      },
    });
    const [result] = await core.executor.run([{ id: '1', name: 'needs_key', args: {} }], scope);
    expect(result?.outcome).toMatchObject({ outcome: 'ok', text: 'worked' });
  });
});
