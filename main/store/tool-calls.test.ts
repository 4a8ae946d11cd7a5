import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_TOOL_TIMEOUT } from '../../tools/sdk/types';
import type { ChatStore } from './chat-store';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore>;
let store: ChatStore;
beforeEach(() => {
  temp = tempStore();
  store = temp.store;
  store.chats.create({ id: 'c', title: 'Chat', workspace: '/w' });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(5_000);
});
afterEach(() => {
  vi.useRealTimers();
  temp.dispose();
});

const queue = (callId: string, tool = 'read_file') =>
  store.toolCalls.queued({
    chatId: 'c',
    callId,
    tool,
    source: { kind: 'builtin' },
    args: '{"path":"a.txt"}',
  });

describe('ToolCallTable', () => {
  it('records queued → started → finished ok, with timings and the result text', () => {
    const message = store.messages.append('c', { role: 'assistant', content: [] });
    store.toolCalls.queued({
      chatId: 'c',
      callId: 'call_1',
      tool: 'lookup',
      source: { kind: 'mcp', server: 'docs', remoteName: 'lookup' },
      args: '{"q":"[REDACTED]"}',
      messageId: message.id,
    });
    expect(store.toolCalls.get('c', 'call_1')).toMatchObject({
      status: 'queued',
      queuedAt: 5_000,
      startedAt: null,
    });
    store.toolCalls.started('c', 'call_1', { limitMs: 60_000, startedAt: 5_010 });
    expect(store.toolCalls.get('c', 'call_1')).toMatchObject({
      status: 'running',
      startedAt: 5_010,
      limitMs: 60_000,
    });
    store.toolCalls.finished(
      'c',
      'call_1',
      { outcome: 'ok', text: 'found it', content: [{ type: 'text', text: 'found it' }], durationMs: 12.5 },
      5_023,
    );
    expect(store.toolCalls.get('c', 'call_1')).toEqual({
      chatId: 'c',
      callId: 'call_1',
      messageId: message.id,
      tool: 'lookup',
      source: { kind: 'mcp', server: 'docs', remoteName: 'lookup' },
      args: '{"q":"[REDACTED]"}',
      status: 'finished',
      outcome: 'ok',
      code: null,
      result: 'found it',
      queuedAt: 5_000,
      startedAt: 5_010,
      endedAt: 5_023,
      durationMs: 12.5,
      limitMs: 60_000,
    });
  });

  it('records error codes, time-outs with their limit, cancellations and denials (which never start)', () => {
    for (const id of ['e', 't', 'x', 'd']) queue(id);
    store.toolCalls.started('c', 'e', { limitMs: NO_TOOL_TIMEOUT });
    store.toolCalls.finished('c', 'e', {
      outcome: 'error',
      code: 'credential_missing',
      message: 'missing secret K',
      durationMs: 3,
    });
    store.toolCalls.started('c', 't', { limitMs: 1000 });
    store.toolCalls.finished('c', 't', {
      outcome: 'timed_out',
      message: 'timed out after 1 s',
      limitMs: 1000,
      durationMs: 1004,
    });
    store.toolCalls.started('c', 'x', { limitMs: 1000 });
    store.toolCalls.finished('c', 'x', {
      outcome: 'cancelled',
      message: 'cancelled by the user',
      durationMs: 40,
    });
    store.toolCalls.finished('c', 'd', { outcome: 'denied', message: 'denied by the user', reason: 'no' });
    expect(
      store.toolCalls
        .list('c')
        .map((c) => [c.callId, c.status, c.outcome, c.code, c.result, c.durationMs, c.limitMs]),
    ).toEqual([
      ['e', 'finished', 'error', 'credential_missing', 'missing secret K', 3, null],
      ['t', 'finished', 'timed_out', null, 'timed out after 1 s', 1004, 1000],
      ['x', 'finished', 'cancelled', null, 'cancelled by the user', 40, 1000],
      ['d', 'finished', 'denied', null, 'denied by the user', null, null],
    ]);
    expect(store.toolCalls.get('c', 'd')?.startedAt).toBeNull();
  });

  it('lists a chat in call order and refuses out-of-order or duplicate records', () => {
    queue('z');
    queue('a');
    expect(store.toolCalls.list('c').map((c) => c.callId)).toEqual(['z', 'a']);
    expect(store.toolCalls.list('c', { limit: 1 }).map((c) => c.callId)).toEqual(['z']);
    expect(() => queue('z')).toThrow(/UNIQUE/);
    store.toolCalls.started('c', 'z', { limitMs: 10 });
    expect(() => store.toolCalls.started('c', 'z', { limitMs: 10 })).toThrow(/not queued/);
    store.toolCalls.finished('c', 'z', { outcome: 'cancelled', message: 'stop', durationMs: 1 });
    expect(() =>
      store.toolCalls.finished('c', 'z', { outcome: 'cancelled', message: 'stop', durationMs: 1 }),
    ).toThrow(/not queued or running/);
    expect(() => store.toolCalls.started('c', 'nope', { limitMs: 10 })).toThrow(/not queued/);
    expect(store.toolCalls.get('c', 'nope')).toBeUndefined();
  });

  it('marks calls left queued or running by a crash as interrupted', () => {
    queue('q');
    queue('r');
    queue('f');
    store.toolCalls.started('c', 'r', { limitMs: 10 });
    store.toolCalls.finished('c', 'f', { outcome: 'denied', message: 'no' });
    vi.setSystemTime(9_000);
    expect(store.toolCalls.markInterrupted().map((c) => [c.callId, c.status, c.endedAt])).toEqual([
      ['q', 'interrupted', 9_000],
      ['r', 'interrupted', 9_000],
    ]);
    expect(store.toolCalls.get('c', 'f')?.status).toBe('finished');
  });
});

describe('ApprovalTable', () => {
  it('records each request and its decision: allow, deny, stop, timed out', () => {
    for (const id of ['a', 'd', 's', 't', 'p'])
      store.approvals.requested({ chatId: 'c', callId: id, tool: 'rm', definitionHash: 'h1' });
    vi.setSystemTime(6_000);
    store.approvals.decided('c', 'a', { kind: 'allow', scope: 'chat' });
    store.approvals.decided('c', 'd', {
      kind: 'deny',
      reason: 'too risky',
      scope: 'always',
      message: 'denied: too risky',
    });
    store.approvals.decided('c', 's', { kind: 'stop' });
    store.approvals.decided('c', 't', { kind: 'deny', reason: 'no answer' }, { timedOut: true });
    expect(store.approvals.list('c').map((a) => [a.callId, a.decision, a.timedOut, a.decidedAt])).toEqual([
      ['a', { kind: 'allow', scope: 'chat' }, false, 6_000],
      [
        'd',
        { kind: 'deny', reason: 'too risky', scope: 'always', message: 'denied: too risky' },
        false,
        6_000,
      ],
      ['s', { kind: 'stop' }, false, 6_000],
      ['t', { kind: 'deny', reason: 'no answer' }, true, 6_000],
      ['p', null, false, null],
    ]);
    expect(store.approvals.get('c', 'a')).toEqual({
      chatId: 'c',
      callId: 'a',
      tool: 'rm',
      definitionHash: 'h1',
      requestedAt: 5_000,
      decidedAt: 6_000,
      decision: { kind: 'allow', scope: 'chat' },
      timedOut: false,
    });
    expect(store.approvals.get('c', 'none')).toBeUndefined();
  });

  it('takes one decision per request, and re-opens a decided call asked again', () => {
    store.approvals.requested({ chatId: 'c', callId: 'x', tool: 'rm' });
    expect(() => store.approvals.requested({ chatId: 'c', callId: 'x', tool: 'rm' })).toThrow(
      /already pending/,
    );
    store.approvals.decided('c', 'x', { kind: 'allow', scope: 'always' });
    expect(() => store.approvals.decided('c', 'x', { kind: 'stop' })).toThrow(/no pending approval/);
    expect(() => store.approvals.decided('c', 'y', { kind: 'stop' })).toThrow(/no pending approval/);
    // A rule's allow decided again before the call ran, and the person denied it then: the denial is what it ran by.
    vi.setSystemTime(7_000);
    store.approvals.requested({ chatId: 'c', callId: 'x', tool: 'rm', definitionHash: 'h2' });
    expect(store.approvals.get('c', 'x')).toMatchObject({
      decision: null,
      decidedAt: null,
      requestedAt: 7_000,
    });
    store.approvals.decided('c', 'x', { kind: 'deny', reason: 'not now' });
    expect(store.approvals.list('c')).toEqual([
      expect.objectContaining({
        callId: 'x',
        definitionHash: 'h2',
        decision: { kind: 'deny', reason: 'not now' },
      }),
    ]);
  });
});
