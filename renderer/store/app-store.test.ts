// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { approvalItem, approvalRequest, chatSummary, snapshot, task } from '../testing/views';
import type { FakeApi, FakeDialogApi } from '../testing/fake-bridge';
import { fakeApi, fakeDialogApi } from '../testing/fake-bridge';
import { initialAppState, useAppStore } from './app-store';
import { setBridge } from '../boot/bridge';
import { connectStore, loadApp } from './connect-store';

let api: FakeApi;
let dialogs: FakeDialogApi;
let disconnect: () => void;
const state = () => useAppStore.getState();

beforeEach(() => {
  useAppStore.setState(initialAppState, true);
  history.replaceState(null, '', '/');
  api = fakeApi({
    'app.info': () => ({ mode: 'web', version: '0', platform: 'linux', home: '/h', defaultWorkspace: '/w' }),
    'chats.list': () => [chatSummary({ id: 'c1' }), chatSummary({ id: 'c2', title: 'Other' })],
    'chats.open': ({ chatId }) =>
      snapshot({ chat: chatSummary({ id: chatId }), tasks: [task({ id: 'old', chatId })] }),
    'tasks.list': () => [task({ id: 't1' }), task({ id: 't2' })],
    'turn.send': () => ({ started: true }),
    'turn.cancel': () => ({ cancelled: true }),
    'tasks.cancel': () => ({ cancelled: true }),
  });
  dialogs = fakeDialogApi([
    approvalRequest([approvalItem({ index: 0 }), approvalItem({ index: 1, callId: 'call_2' })]),
  ]);
  setBridge({ agenvoy: api, agenvoyDialog: dialogs });
  disconnect = connectStore();
});

afterEach(() => disconnect());

describe('the bound store', () => {
  it('loads the app and opens the newest chat, remembering it in the URL', async () => {
    await loadApp();
    expect(state().appInfo?.mode).toBe('web');
    expect(state().chats.map((c) => c.id)).toEqual(['c1', 'c2']);
    expect(state().chat.chatId).toBe('c1');
    expect(location.hash).toBe('#chat=c1');
    expect(state().taskOrder).toEqual(['old', 't2', 't1']);
    expect(state().dialogs).toHaveLength(1);
  });

  it('reopens the chat the URL names', async () => {
    history.replaceState(null, '', '/#chat=c2');
    await loadApp();
    expect(state().chat.chatId).toBe('c2');
  });

  it('sends and stops through the Api, and follows the turn from events', async () => {
    await state().openChat('c1');
    expect(await state().sendMessage('hello')).toBe(true);
    expect(api.calls.at(-1)).toEqual({ channel: 'turn.send', request: { chatId: 'c1', text: 'hello' } });
    api.emit('chat.event', { type: 'turn.started', chatId: 'c1', turnId: 't' });
    expect(state().chat.running).toBe(true);
    expect(state().chats.find((c) => c.id === 'c1')?.running).toBe(true);
    api.emit('chat.event', { type: 'message.started', chatId: 'c1', messageId: 3, round: 1 });
    for (const delta of ['a', 'b', 'c'])
      api.emit('chat.event', { type: 'text.delta', chatId: 'c1', messageId: 3, delta });
    // Streamed text is handed over per frame, and before any later event.
    api.emit('chat.event', { type: 'message.finished', chatId: 'c1', messageId: 3, status: 'complete' });
    expect(state().chat.messages.at(-1)).toMatchObject({ text: 'abc', status: 'complete' });
    await state().stopTurn();
    expect(api.calls.at(-1)).toEqual({ channel: 'turn.cancel', request: { chatId: 'c1' } });
  });

  it("keeps the open chat's title and workspace current from chat.changed", async () => {
    await state().openChat('c1');
    api.emit('chat.event', { type: 'turn.started', chatId: 'c1', turnId: 't' });
    api.emit('chat.event', {
      type: 'chat.changed',
      chatId: 'c1',
      chat: chatSummary({ id: 'c1', title: 'Renamed', running: true }),
    });
    expect(state().chat.summary?.title).toBe('Renamed');
    expect(state().chats.find((c) => c.id === 'c1')?.title).toBe('Renamed');
    api.emit('chat.event', { type: 'chat.changed', chatId: 'c2', chat: null });
    expect(state().chats.map((c) => c.id)).toEqual(['c1']);
  });

  it('batches streamed text per frame', async () => {
    await state().openChat('c1');
    api.emit('chat.event', { type: 'message.started', chatId: 'c1', messageId: 3, round: 1 });
    const renders = vi.fn();
    const off = useAppStore.subscribe((s, prev) => s.chat !== prev.chat && renders());
    for (let i = 0; i < 50; i++)
      api.emit('chat.event', { type: 'text.delta', chatId: 'c1', messageId: 3, delta: 'x' });
    await vi.waitFor(() => expect(state().chat.messages.at(-1)).toMatchObject({ text: 'x'.repeat(50) }));
    expect(renders.mock.calls.length).toBeLessThanOrEqual(2);
    off();
  });

  it('refetches a chat opened mid-stream once that message ends', async () => {
    api = fakeApi({
      'chats.open': () =>
        snapshot({
          messages: [
            {
              kind: 'assistant',
              id: 9,
              seq: 1,
              createdAt: 1,
              status: 'streaming',
              text: 'par',
              parts: [{ type: 'text', text: 'par' }],
              usage: null,
            },
          ],
        }),
    });
    setBridge({ agenvoy: api });
    disconnect();
    disconnect = connectStore();
    await state().openChat('c1');
    expect(state().chat.staleStream).toBe(true);
    api.emit('chat.event', { type: 'message.finished', chatId: 'c1', messageId: 9, status: 'complete' });
    await vi.waitFor(() => expect(api.calls.filter((c) => c.channel === 'chats.open')).toHaveLength(2));
  });

  it('keeps tasks live, newest first, never reviving a finished one', () => {
    state().taskChanged(task({ id: 'a' }));
    state().taskChanged(task({ id: 'b' }));
    state().taskChanged(task({ id: 'a', status: 'cancelled' }));
    api.emit('task.changed', task({ id: 'a', status: 'running' }));
    expect(state().taskOrder).toEqual(['b', 'a']);
    expect(state().tasks.a?.status).toBe('cancelled');
  });

  it('tracks dialogs from events and answers approvals item by item', async () => {
    await state().loadDialogs();
    expect(await state().answerApproval('d1', 0, { kind: 'allow_once' })).toBeNull();
    expect(dialogs.answers).toEqual([
      { kind: 'approval', request: { id: 'd1', index: 0, choice: { kind: 'allow_once' } } },
    ]);
    expect(state().dialogs[0]).toMatchObject({ pending: [1] });
    dialogs.emit({ type: 'dialog.closed', id: 'd1', reason: 'timed_out' });
    expect(state().dialogs).toEqual([]);
    expect(state().notices.at(-1)?.level).toBe('warn');
  });

  it('resyncs everything after the connection comes back', async () => {
    await state().openChat('c1');
    api.emit('connection', { state: 'reconnecting', attempt: 1 });
    expect(state().connection.state).toBe('reconnecting');
    const before = api.calls.length;
    api.emit('connection', { state: 'connected' });
    await vi.waitFor(() =>
      expect(api.calls.slice(before).map((c) => c.channel)).toEqual(
        expect.arrayContaining(['chats.list', 'tasks.list', 'chats.open']),
      ),
    );
  });

  it('turns failed invokes into error notices', async () => {
    await state().createChat();
    expect(state().notices.at(-1)).toMatchObject({
      level: 'error',
      message: expect.stringContaining('no fake for chats.create'),
    });
  });
});
