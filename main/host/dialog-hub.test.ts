// The dialog hub: dialogs open, change and close through the presenter; answers reach the waiting port.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { DialogEvent } from '../../preload/contract';
import type { PromptChoice, PromptItem, PromptSession } from '../gate/prompter-port';
import { gateFixture } from '../gate/testing/gate-fixture';
import { DialogHub } from './dialog-hub';
import { HostError } from './host-error';

function hub() {
  const events: DialogEvent[] = [];
  const notices: unknown[] = [];
  const dialogs = new DialogHub({
    redact: (text) => text.replaceAll('s3cret-value', '[redacted:KEY]'),
    chatTitle: (chatId) => `title of ${chatId}`,
    notice: (notice) => notices.push(notice),
  });
  dialogs.attach({ present: (event) => events.push(event) });
  return { dialogs, events, notices };
}

function item(tool: string, args: Record<string, unknown>): PromptItem {
  return {
    request: {
      callId: `call-${tool}`,
      chatId: 'chat-1',
      tool,
      source: { kind: 'builtin' },
      flags: { alwaysAllow: false, concurrent: false, background: false, systemUse: false },
      timeoutMs: 1000,
      definitionHash: 'h',
      args,
      workspace: '/work/space',
      sandbox: 'none',
    },
    canonical: JSON.stringify(args),
    suggestedPattern: null,
    sensitive: null,
    compound: null,
    voidedRules: [],
    personOnly: null,
    noStanding: null,
    offers: { chat: true, always: true },
  };
}

// A session as the gate makes one: answers are recorded, one answer may settle other items too.
function session(items: PromptItem[], settleAlso: Record<number, number[]> = {}) {
  const controller = new AbortController();
  const answers: Array<[number, PromptChoice]> = [];
  const settled = new Set<number>();
  const value: PromptSession = {
    chatId: 'chat-1',
    items,
    signal: controller.signal,
    timeoutMs: null,
    isPending: (index) => !controller.signal.aborted && index < items.length && !settled.has(index),
    async answer(index, choice) {
      answers.push([index, choice]);
      settled.add(index);
      for (const other of settleAlso[index] ?? []) settled.add(other);
      if (choice.kind === 'stop') items.forEach((_, i) => settled.add(i));
    },
  };
  return { value, answers, controller };
}

describe('DialogHub: approvals', () => {
  it('shows a batch with pretty, redacted arguments, answered item by item', async () => {
    const { dialogs, events } = hub();
    const s = session([
      item('run_command', { command: 'echo s3cret-value' }),
      item('write_result', { path: 'a.md' }),
    ]);
    const done = dialogs.approvalPrompter().prompt(s.value);
    const opened = events[0];
    expect(opened?.type).toBe('dialog.opened');
    const dialog = opened?.type === 'dialog.opened' ? opened.dialog : null;
    if (dialog?.kind !== 'approval') throw new Error('no approval dialog');
    expect(dialog.chatTitle).toBe('title of chat-1');
    expect(dialog.pending).toEqual([0, 1]);
    expect(dialog.items[0]?.args).toBe('{\n  "command": "echo [redacted:KEY]"\n}');
    expect(JSON.stringify(dialogs.pending())).not.toContain('s3cret-value');
    expect(await dialogs.answerApproval(dialog.id, 0, { kind: 'allow_once' })).toEqual([1]);
    expect(events.at(-1)).toEqual({ type: 'dialog.updated', id: dialog.id, pending: [1] });
    await expect(dialogs.answerApproval(dialog.id, 0, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'busy',
    });
    expect(await dialogs.answerApproval(dialog.id, 1, { kind: 'deny', reason: '  not now ' })).toEqual([]);
    await done;
    expect(s.answers).toEqual([
      [0, { kind: 'allow_once' }],
      [1, { kind: 'deny', reason: 'not now' }],
    ]);
    expect(events.at(-1)).toEqual({ type: 'dialog.closed', id: dialog.id, reason: 'answered' });
    expect(dialogs.pending()).toEqual([]);
  });

  it('an answer that settles the rest closes the dialog', async () => {
    const { dialogs, events } = hub();
    const s = session([item('a', {}), item('a', { x: 1 })], { 0: [1] });
    const done = dialogs.approvalPrompter().prompt(s.value);
    const id = dialogs.pending()[0]?.id ?? '';
    expect(await dialogs.answerApproval(id, 0, { kind: 'allow_chat' })).toEqual([]);
    await done;
    expect(events.at(-1)).toMatchObject({ type: 'dialog.closed', reason: 'answered' });
  });

  it('refuses malformed choices and unknown dialogs as data-ready HostErrors', async () => {
    const { dialogs } = hub();
    const s = session([item('a', {})]);
    void dialogs.approvalPrompter().prompt(s.value);
    const id = dialogs.pending()[0]?.id ?? '';
    await expect(dialogs.answerApproval(id, 0, { kind: 'approve_everything' })).rejects.toBeInstanceOf(
      HostError,
    );
    await expect(dialogs.answerApproval(id, 5, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(dialogs.answerApproval('nope', 0, { kind: 'allow_once' })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(() => dialogs.answerSecret(id, { kind: 'value', value: 'x' })).toThrow(/not a secret dialog/);
    await dialogs.dismiss(id);
    expect(s.answers).toEqual([[0, { kind: 'deny' }]]);
  });

  it('closes as timed out or cancelled when the gate ends the session', async () => {
    const { dialogs, events } = hub();
    const timedOut = session([item('a', {})]);
    const first = dialogs.approvalPrompter().prompt(timedOut.value);
    timedOut.controller.abort(new Error('the approval timed out'));
    await first;
    expect(events.at(-1)).toMatchObject({ type: 'dialog.closed', reason: 'timed_out' });
    const cancelled = session([item('a', {})]);
    const second = dialogs.approvalPrompter().prompt(cancelled.value);
    cancelled.controller.abort(new Error('the turn was cancelled'));
    await second;
    expect(events.at(-1)).toMatchObject({ type: 'dialog.closed', reason: 'cancelled' });
  });

  it('offers a chained command no chat grant, and refuses one sent anyway, through the real confirm gate', async () => {
    const { dialogs, events } = hub();
    const fx = gateFixture({ prompter: dialogs.approvalPrompter() });
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-hub-ws-'));
    const outcome = fx.dispatcher.dispatch(
      { id: 'c1', name: 'run_command', args: { command: 'npm test && npm run build' } },
      { chatId: 'chat-1', workspace },
    );
    await vi.waitFor(() => expect(dialogs.pending()).toHaveLength(1), { timeout: 10_000 });
    const dialog = dialogs.pending()[0];
    if (dialog?.kind !== 'approval') throw new Error('no approval dialog');
    expect(dialog.items[0]).toMatchObject({ compound: '&&', offers: { chat: false, always: false } });
    await expect(dialogs.answerApproval(dialog.id, 0, { kind: 'allow_chat' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining(
        '"allow for this chat" is not offered for this call: the command chains',
      ),
    });
    await expect(dialogs.answerApproval(dialog.id, 0, { kind: 'allow_always' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    // Still open and undecided: the person can allow it once.
    expect(dialogs.pending()).toHaveLength(1);
    expect(await dialogs.answerApproval(dialog.id, 0, { kind: 'allow_once' })).toEqual([]);
    expect((await outcome).outcome).toBe('ok');
    expect(fx.gate.grants.list('chat-1')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'dialog.closed', reason: 'answered' });
  });

  it('forwards gate notices as app notices', () => {
    const { dialogs, notices } = hub();
    dialogs.approvalPrompter().notify({ kind: 'timed_out', chatId: 'c', tools: ['a'], afterMs: 5 });
    expect(notices).toEqual([{ kind: 'approval_timed_out', chatId: 'c', tools: ['a'], afterMs: 5 }]);
  });
});

describe('DialogHub: secrets and questions', () => {
  it('hands the secret value to the waiting prompt only; events never carry it', async () => {
    const { dialogs, events } = hub();
    const read = dialogs
      .secretPrompt()
      .read(
        { key: 'API_KEY', question: 'Needed for the API', forTool: 'http_request' },
        new AbortController().signal,
      );
    const opened = dialogs.pending()[0];
    expect(opened).toMatchObject({
      kind: 'secret',
      key: 'API_KEY',
      question: 'Needed for the API',
      forTool: 'http_request',
    });
    dialogs.answerSecret(opened?.id ?? '', { kind: 'value', value: 'the-value-123' });
    await expect(read).resolves.toBe('the-value-123');
    expect(JSON.stringify(events)).not.toContain('the-value-123');
    expect(events.at(-1)).toMatchObject({ type: 'dialog.closed', reason: 'answered' });
  });

  it('cancel answers null; an aborted prompt rejects and closes', async () => {
    const { dialogs, events } = hub();
    const read = dialogs.secretPrompt().read({ key: 'K', question: 'q' }, new AbortController().signal);
    dialogs.answerSecret(dialogs.pending()[0]?.id ?? '', { kind: 'cancel' });
    await expect(read).resolves.toBeNull();
    const controller = new AbortController();
    const aborted = dialogs.secretPrompt().read({ key: 'K', question: 'q' }, controller.signal);
    controller.abort(new Error('turn cancelled'));
    await expect(aborted).rejects.toThrow('turn cancelled');
    expect(events.at(-1)).toMatchObject({ type: 'dialog.closed', reason: 'cancelled' });
    expect(() => dialogs.answerSecret('gone', { kind: 'value', value: 'v' })).toThrow(HostError);
  });

  it('refuses a malformed secret answer without naming its value', () => {
    const { dialogs } = hub();
    void dialogs.secretPrompt().read({ key: 'K', question: 'q' }, new AbortController().signal);
    const id = dialogs.pending()[0]?.id ?? '';
    expect(() => dialogs.answerSecret(id, { kind: 'value', value: 42 })).toThrow(
      'the secret value must be a string',
    );
    expect(() => dialogs.answerSecret(id, { kind: 'value', value: 'x'.repeat(70_000) })).toThrow(/too long/);
  });

  it('answers ask_user with the answers to the questions asked, in their shapes', async () => {
    const { dialogs } = hub();
    const asked = dialogs.askUser().ask(
      'chat-1',
      [
        { id: 'q1', prompt: 'Which?', kind: 'single', options: ['a', 'b'] },
        { id: 'q2', prompt: 'Any?', kind: 'multiple', options: ['x', 'y'] },
      ],
      new AbortController().signal,
    );
    const id = dialogs.pending()[0]?.id ?? '';
    expect(() => dialogs.answerQuestion(id, { kind: 'answered', answers: { q2: 'x' } })).toThrow(
      /list of strings/,
    );
    dialogs.answerQuestion(id, { kind: 'answered', answers: { q1: 'b', q2: ['x', 'y'], q9: 'ignored' } });
    await expect(asked).resolves.toEqual({ answered: true, answers: { q1: 'b', q2: ['x', 'y'] } });
  });

  it('a dismissed or closed question is no answer', async () => {
    const { dialogs } = hub();
    const asked = dialogs
      .askUser()
      .ask('c', [{ id: 'q1', prompt: 'p', kind: 'text', options: [] }], new AbortController().signal);
    await dialogs.dismiss(dialogs.pending()[0]?.id ?? '');
    await expect(asked).resolves.toMatchObject({ answered: false });
  });
});
