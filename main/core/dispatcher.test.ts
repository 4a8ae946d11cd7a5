import { describe, expect, it } from 'vitest';
import { CredentialError, defineTool, NO_TOOL_TIMEOUT, ToolError } from '../../tools/sdk/types';
import type { CallEvent } from './dispatcher';
import { policyGate } from './gate-port';
import { testCore } from './testing/test-core';
import { backgroundCommandTool } from '../../tools/builtin/background-command';
import { RUN_COMMAND_TIMEOUT_MS, runCommandTool } from '../../tools/builtin/run-command';

const params = (props: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  properties: props,
  required,
  additionalProperties: false,
});

const echo = defineTool({
  name: 'echo_text',
  description: 'Echo text.\nUse when testing.',
  parameters: params({ text: { type: 'string', description: 'text' } }, ['text']),
  flags: { alwaysAllow: true },
  handler: (args) => String(args.text),
});

const scope = { chatId: 'c1', workspace: '/tmp' };

describe('Dispatcher', () => {
  it('runs a valid call and emits queued, started and finished events in order', async () => {
    const core = testCore([echo]);
    const events: CallEvent[] = [];
    core.dispatcher.on((e) => events.push(e));
    const outcome = await core.dispatcher.dispatch(
      { id: '1', name: 'echo_text', args: { text: 'hi' } },
      scope,
    );
    expect(outcome).toMatchObject({ outcome: 'ok', text: 'hi' });
    expect(events.map((e) => e.type)).toEqual(['call.queued', 'call.started', 'call.finished']);
  });

  it('rejects invalid arguments with a message naming the field, without running the handler', async () => {
    let ran = false;
    const tool = defineTool({ ...echo, name: 'strict_tool', handler: () => ((ran = true), 'x') });
    const core = testCore([tool]);
    const outcome = await core.dispatcher.dispatch(
      { id: '1', name: 'strict_tool', args: { text: 5, extra: 1 } },
      scope,
    );
    expect(outcome.outcome).toBe('error');
    if (outcome.outcome !== 'error') return;
    expect(outcome.code).toBe('invalid_arguments');
    expect(outcome.message).toContain('`text` must be string');
    expect(outcome.message).toContain('unknown field `extra`');
    expect(ran).toBe(false);
  });

  it('answers an unknown tool with an error and accepts JSON-string arguments', async () => {
    const core = testCore([echo]);
    expect(await core.dispatcher.dispatch({ id: '1', name: 'nope', args: {} }, scope)).toMatchObject({
      outcome: 'error',
      code: 'unknown_tool',
    });
    expect(
      await core.dispatcher.dispatch({ id: '2', name: 'functions.echo_text', args: '{"text":"s"}' }, scope),
    ).toMatchObject({
      outcome: 'ok',
      text: 's',
    });
    expect(
      await core.dispatcher.dispatch({ id: '3', name: 'echo_text', args: '{bad json' }, scope),
    ).toMatchObject({
      outcome: 'error',
      code: 'invalid_arguments',
    });
  });

  it('times out a handler that honours its signal, with a readable message', async () => {
    const slow = defineTool({
      ...echo,
      name: 'slow_tool',
      timeoutMs: 150,
      parameters: params(),
      handler: (_a, ctx) =>
        new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
    });
    const core = testCore([slow]);
    const started = Date.now();
    const outcome = await core.dispatcher.dispatch({ id: '1', name: 'slow_tool', args: {} }, scope);
    expect(outcome).toMatchObject({ outcome: 'timed_out', message: 'timed out after 0.15 s', limitMs: 150 });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('settles within 1 s of the deadline when the handler ignores its signal, and logs the abandoned handler', async () => {
    const stuck = defineTool({
      ...echo,
      name: 'stuck_tool',
      timeoutMs: 200,
      parameters: params(),
      handler: () => new Promise<string>(() => {}),
    });
    const core = testCore([stuck]);
    const started = Date.now();
    const outcome = await core.dispatcher.dispatch({ id: '1', name: 'stuck_tool', args: {} }, scope);
    const settledAfterDeadline = Date.now() - started - 200;
    expect(outcome.outcome).toBe('timed_out');
    expect(settledAfterDeadline).toBeLessThan(1000);
    expect(core.readLog()).toMatch(/WARN abandoned handler that ignored its signal name=stuck_tool/);
  });

  it('reports cancel as its own outcome', async () => {
    const wait = defineTool({
      ...echo,
      name: 'wait_tool',
      timeoutMs: NO_TOOL_TIMEOUT,
      parameters: params(),
      handler: (_a, ctx) =>
        new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('x')))),
    });
    const core = testCore([wait]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await core.dispatcher.dispatch(
      { id: '1', name: 'wait_tool', args: {} },
      { ...scope, signal: controller.signal },
    );
    expect(outcome).toMatchObject({ outcome: 'cancelled' });
  });

  it('turns ToolError and CredentialError into error outcomes with stable codes', async () => {
    const failing = defineTool({
      ...echo,
      name: 'failing_tool',
      parameters: params({ kind: { type: 'string', description: 'kind' } }),
      handler: (args) => {
        if (args.kind === 'cred') throw new CredentialError('GITHUB_TOKEN', 'rejected');
        if (args.kind === 'tool') throw new ToolError('not_found', 'no such file: a.txt');
        throw new TypeError('boom');
      },
    });
    const core = testCore([failing]);
    expect(
      await core.dispatcher.dispatch({ id: '1', name: 'failing_tool', args: { kind: 'cred' } }, scope),
    ).toMatchObject({
      outcome: 'error',
      code: 'credential_rejected',
      credential: { key: 'GITHUB_TOKEN', reason: 'rejected' },
    });
    expect(
      await core.dispatcher.dispatch({ id: '2', name: 'failing_tool', args: { kind: 'tool' } }, scope),
    ).toMatchObject({
      outcome: 'error',
      code: 'not_found',
      message: 'no such file: a.txt',
    });
    expect(
      await core.dispatcher.dispatch({ id: '3', name: 'failing_tool', args: { kind: 'x' } }, scope),
    ).toMatchObject({
      outcome: 'error',
      code: 'tool_failed',
      message: 'tool failed: boom',
    });
  });

  it('asks the gate for tools that are not alwaysAllow and never runs a denied one', async () => {
    let ran = 0;
    const writer = defineTool({ ...echo, name: 'write_thing', flags: {}, handler: () => String(++ran) });
    const asked: string[] = [];
    const core = testCore([writer, echo], {
      gate: policyGate((request) => {
        asked.push(request.tool);
        return { kind: 'deny', reason: 'not now' };
      }),
    });
    const denied = await core.dispatcher.dispatch(
      { id: '1', name: 'write_thing', args: { text: 'a' } },
      scope,
    );
    expect(denied).toEqual({ outcome: 'denied', message: 'denied by the user: not now', reason: 'not now' });
    await core.dispatcher.dispatch({ id: '2', name: 'echo_text', args: { text: 'a' } }, scope);
    expect(asked).toEqual(['write_thing']);
    expect(ran).toBe(0);
  });

  it("shows the gate a background task's own limit, not the tool's foreground default", async () => {
    const limits: Record<string, number | null> = {};
    const core = testCore([backgroundCommandTool, runCommandTool], {
      gate: policyGate((request) => {
        limits[request.callId] = request.timeoutMs;
        return { kind: 'deny' };
      }),
    });
    await core.dispatcher.dispatch(
      { id: 'bg', name: 'background_command', args: { command: 'sleep 1' } },
      scope,
    );
    await core.dispatcher.dispatch(
      { id: 'bg5', name: 'background_command', args: { command: 'sleep 1', timeout_min: 5 } },
      scope,
    );
    await core.dispatcher.dispatch({ id: 'fg', name: 'run_command', args: { command: 'sleep 1' } }, scope);
    expect(limits).toEqual({ bg: 60 * 60_000, bg5: 5 * 60_000, fg: RUN_COMMAND_TIMEOUT_MS });
    // The limit the gate was shown is the one the task then runs under.
    const allowed = testCore([backgroundCommandTool], { gate: policyGate('allow') });
    await allowed.dispatcher.dispatch(
      { id: 'bg', name: 'background_command', args: { command: 'true', timeout_min: 5 } },
      scope,
    );
    expect(allowed.tasks.list().map((task) => task.limitMs)).toEqual([5 * 60_000]);
  });

  it('emits progress events with elapsed time', async () => {
    const progressing = defineTool({
      ...echo,
      name: 'progress_tool',
      parameters: params(),
      handler: async (_a, ctx) => {
        ctx.progress({ message: 'half', progress: 1, total: 2 });
        return 'done';
      },
    });
    const core = testCore([progressing]);
    const events: CallEvent[] = [];
    core.dispatcher.on((e) => events.push(e));
    await core.dispatcher.dispatch({ id: '1', name: 'progress_tool', args: {} }, scope);
    const progress = events.find((e) => e.type === 'call.progress');
    expect(progress).toMatchObject({ update: { message: 'half', progress: 1, total: 2 } });
  });

  it('redacts secret values from results and events', async () => {
    const leaky = defineTool({
      ...echo,
      name: 'leaky_tool',
      parameters: params(),
      handler: () => 'token is CANARY-1234-SECRET',
    });
    const core = testCore([leaky]);
    core.redactor.add('MY_TOKEN', 'CANARY-1234-SECRET');
    const events: CallEvent[] = [];
    core.dispatcher.on((e) => events.push(e));
    const outcome = await core.dispatcher.dispatch({ id: '1', name: 'leaky_tool', args: {} }, scope);
    expect(outcome).toMatchObject({ text: 'token is [redacted:MY_TOKEN]' });
    expect(JSON.stringify(events)).not.toContain('CANARY-1234-SECRET');
  });
});
