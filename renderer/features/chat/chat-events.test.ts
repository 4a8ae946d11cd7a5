// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { ChatEvent, MessageView } from '../../../preload/contract';
import { applyChatEvent, applyGateEvent } from './chat-events';
import type { ChatViewState } from './chat-state';
import { chatFromSnapshot } from './chat-state';
import { roundUsage, snapshot } from '../../testing/views';

const open = (): ChatViewState => chatFromSnapshot(snapshot());
const fold = (state: ChatViewState, events: ChatEvent[]) =>
  events.reduce((s, e) => applyChatEvent(s, e, 1000), state);
const assistant = (state: ChatViewState) =>
  state.messages
    .filter((m): m is Extract<MessageView, { kind: 'assistant' }> => m.kind === 'assistant')
    .at(-1);

describe('applyChatEvent', () => {
  it('streams text into one assistant message and marks how it ended', () => {
    const state = fold(open(), [
      { type: 'turn.started', chatId: 'c1', turnId: 't' },
      { type: 'message.user', chatId: 'c1', text: 'hi' },
      { type: 'message.started', chatId: 'c1', messageId: 7, round: 1 },
      { type: 'text.delta', chatId: 'c1', messageId: 7, delta: 'Hel' },
      { type: 'text.delta', chatId: 'c1', messageId: 7, delta: 'lo **there**' },
      { type: 'message.finished', chatId: 'c1', messageId: 7, status: 'complete' },
    ]);
    expect(state.running).toBe(true);
    expect(state.messages.map((m) => m.kind)).toEqual(['user', 'assistant']);
    expect(assistant(state)).toMatchObject({
      id: 7,
      text: 'Hello **there**',
      status: 'complete',
      parts: [{ type: 'text', text: 'Hello **there**' }],
    });
    const done = applyChatEvent(
      state,
      {
        type: 'turn.finished',
        chatId: 'c1',
        turnId: 't',
        status: 'failed',
        text: '',
        rounds: 1,
        error: 'boom',
      },
      1,
    );
    expect(done).toMatchObject({ running: false, turnError: 'boom' });
  });

  it('streams reasoning into a part of its own, kept apart from the text, and attaches the usage', () => {
    const usage = roundUsage({ inputTokens: 12, outputTokens: 3 }, { costUsd: 0.5 });
    const state = fold(open(), [
      { type: 'message.started', chatId: 'c1', messageId: 7, round: 1 },
      { type: 'reasoning.delta', chatId: 'c1', messageId: 7, delta: 'Let me ' },
      { type: 'reasoning.delta', chatId: 'c1', messageId: 7, delta: 'think.' },
      { type: 'text.delta', chatId: 'c1', messageId: 7, delta: 'Answer' },
      { type: 'reasoning.delta', chatId: 'c1', messageId: 7, delta: 'More.' },
      { type: 'message.finished', chatId: 'c1', messageId: 7, status: 'complete' },
    ]);
    expect(assistant(state)).toMatchObject({
      text: 'Answer',
      usage: null,
      parts: [
        { type: 'reasoning', text: 'Let me think.' },
        { type: 'text', text: 'Answer' },
        { type: 'reasoning', text: 'More.' },
      ],
    });
    const event = (messageId: number): ChatEvent => ({
      type: 'usage',
      chatId: 'c1',
      messageId,
      round: 1,
      ...usage,
    });
    expect(assistant(applyChatEvent(state, event(7), 1))?.usage).toEqual(usage);
    expect(applyChatEvent(state, event(99), 1)).toBe(state);
  });

  it('ignores events of other chats', () => {
    const state = open();
    expect(applyChatEvent(state, { type: 'message.user', chatId: 'other', text: 'x' }, 1)).toBe(state);
  });

  it('binds a queued call to the part the model streamed, even under another id', () => {
    const state = fold(open(), [
      { type: 'message.started', chatId: 'c1', messageId: 1, round: 1 },
      { type: 'tool.call', chatId: 'c1', callId: 'call_0', name: 'run_tool', args: '{"name":"ls"}' },
      { type: 'tool.call', chatId: 'c1', callId: 'call_1', name: 'ask_user', args: '{}' },
      { type: 'message.finished', chatId: 'c1', messageId: 1, status: 'complete' },
    ]);
    expect(state.draftCalls).toEqual(['call_0', 'call_1']);
    const queued = fold(state, [
      {
        type: 'call.queued',
        chatId: 'c1',
        callId: 'call_0_2',
        tool: 'list_files',
        source: { kind: 'builtin' },
        args: '{}',
      },
      {
        type: 'call.queued',
        chatId: 'c1',
        callId: 'call_1',
        tool: 'ask_user',
        source: { kind: 'builtin' },
        args: '{}',
      },
    ]);
    expect(assistant(queued)?.parts).toEqual([
      { type: 'tool_call', callId: 'call_0_2', name: 'list_files' },
      { type: 'tool_call', callId: 'call_1', name: 'ask_user' },
    ]);
    expect(queued.draftCalls).toEqual([]);
    expect(queued.calls.call_0_2).toMatchObject({ tool: 'list_files', status: 'queued', messageId: 1 });
  });

  it('follows a call through approval, start, progress and each outcome', () => {
    let state = fold(open(), [
      { type: 'message.started', chatId: 'c1', messageId: 1, round: 1 },
      {
        type: 'call.queued',
        chatId: 'c1',
        callId: 'a',
        tool: 'run_command',
        source: { kind: 'builtin' },
        args: '{"command":"ls"}',
      },
    ]);
    state = applyGateEvent(
      state,
      {
        type: 'gate.requested',
        chatId: 'c1',
        calls: [{ callId: 'a', tool: 'run_command', sensitive: null }],
      },
      5,
    );
    expect(state.calls.a?.approval).toEqual({ state: 'pending', requestedAt: 5 });
    expect(state.pendingApprovals).toHaveLength(1);
    state = applyGateEvent(
      state,
      {
        type: 'gate.decided',
        chatId: 'c1',
        callId: 'a',
        tool: 'run_command',
        decision: { kind: 'allow', scope: 'once' },
        by: 'user',
        ruleId: null,
      },
      6,
    );
    expect(state.pendingApprovals).toHaveLength(0);
    state = fold(state, [
      {
        type: 'call.started',
        chatId: 'c1',
        callId: 'a',
        tool: 'run_command',
        startedAt: 900,
        limitMs: 1_800_000,
      },
      {
        type: 'call.progress',
        chatId: 'c1',
        callId: 'a',
        tool: 'run_command',
        elapsedMs: 50,
        update: { output: 'one\n' },
      },
      {
        type: 'call.progress',
        chatId: 'c1',
        callId: 'a',
        tool: 'run_command',
        elapsedMs: 90,
        update: { output: 'two\n', message: 'half' },
      },
    ]);
    expect(state.calls.a).toMatchObject({ status: 'running', startedAt: 900, limitMs: 1_800_000 });
    expect(state.progress.a).toMatchObject({ elapsedMs: 90, output: 'one\ntwo\n', message: 'half' });

    const outcomes: Array<[ChatEvent, object]> = [
      [
        finished({ outcome: 'ok', text: 'files', durationMs: 10 }),
        { outcome: 'ok', result: 'files', durationMs: 10 },
      ],
      [
        finished({ outcome: 'error', code: 'script_error', message: 'bad', durationMs: 3 }),
        { outcome: 'error', code: 'script_error', result: 'bad' },
      ],
      [
        finished({ outcome: 'timed_out', message: 'timed out after 2 s', limitMs: 2000, durationMs: 2001 }),
        { outcome: 'timed_out', limitMs: 2000 },
      ],
      [
        finished({ outcome: 'cancelled', message: 'cancelled', durationMs: 1 }),
        { outcome: 'cancelled', result: 'cancelled' },
      ],
      [
        finished({ outcome: 'denied', message: 'denied by the user', reason: 'not now' }),
        { outcome: 'denied', result: 'denied by the user (not now)' },
      ],
    ];
    for (const [event, expected] of outcomes)
      expect(applyChatEvent(state, event, 1).calls.a).toMatchObject({ status: 'finished', ...expected });
    // A long result arrives begun (docs/interface.md, "Large calls"): the card says how much is left.
    const cut = { ...finished({ outcome: 'ok', text: 'start', durationMs: 10 }), cut: 70 } as ChatEvent;
    expect(applyChatEvent(state, cut, 1).calls.a).toMatchObject({ result: 'start', resultCut: 70 });
  });

  it('keeps how much of long arguments was left out of a queued call', () => {
    const state = fold(open(), [
      {
        type: 'call.queued',
        chatId: 'c1',
        callId: 'a',
        tool: 'write_result',
        source: { kind: 'builtin' },
        args: '{"content":"abc',
        argsCut: 900,
      },
    ]);
    expect(state.calls.a).toMatchObject({ args: '{"content":"abc', argsCut: 900 });
  });

  it('keeps the checklist and deliverables current', () => {
    const state = fold(open(), [
      { type: 'todo.updated', chatId: 'c1', items: [{ text: 'a', status: 'done' }] },
      { type: 'result.published', chatId: 'c1', result: { path: '/w/r.md', title: 'Report', bytes: 10 } },
      { type: 'result.published', chatId: 'c1', result: { path: '/w/r.md', title: 'Report v2', bytes: 12 } },
    ]);
    expect(state.todos).toEqual([{ text: 'a', status: 'done' }]);
    expect(state.results).toEqual([{ path: '/w/r.md', title: 'Report v2', bytes: 12 }]);
  });
});

function finished(outcome: Extract<ChatEvent, { type: 'call.finished' }>['outcome']): ChatEvent {
  return { type: 'call.finished', chatId: 'c1', callId: 'a', tool: 'run_command', outcome };
}
