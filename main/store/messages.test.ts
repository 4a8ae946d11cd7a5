import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptMessage } from './transcript';
import type { ChatStore } from './chat-store';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore>;
let store: ChatStore;
beforeEach(() => {
  temp = tempStore();
  store = temp.store;
  store.chats.create({ id: 'c', title: 'Chat', workspace: '/w' });
  store.chats.create({ id: 'other', title: 'Other', workspace: '/w' });
});
afterEach(() => {
  vi.useRealTimers();
  temp.dispose();
});

const user: TranscriptMessage = {
  role: 'user',
  content: [
    { type: 'text', text: 'what is in this picture?' },
    { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
  ],
};
const assistant: TranscriptMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Let me look.' },
    { type: 'tool_call', id: 'call_1', name: 'read_file', args: '{"path": "a.txt"' },
  ],
};
const results: TranscriptMessage = {
  role: 'tool_results',
  results: [
    { callId: 'call_1', name: 'read_file', content: [{ type: 'text', text: 'hello' }], isError: true },
  ],
};

describe('MessageTable', () => {
  it('appends every role and lists them in order with seq and status, per chat', () => {
    expect(store.messages.append('c', user)).toEqual({ id: 1, seq: 1 });
    expect(store.messages.append('other', user)).toEqual({ id: 2, seq: 1 });
    expect(store.messages.append('c', assistant)).toEqual({ id: 3, seq: 2 });
    expect(store.messages.append('c', results)).toEqual({ id: 4, seq: 3 });
    const listed = store.messages.list('c');
    expect(listed.map((m) => [m.id, m.seq, m.status, m.chatId])).toEqual([
      [1, 1, 'complete', 'c'],
      [3, 2, 'complete', 'c'],
      [4, 3, 'complete', 'c'],
    ]);
    // Raw (even malformed) tool-call arguments and images come back byte for byte.
    expect(listed.map((m) => m.message)).toEqual([user, assistant, results]);
    expect(store.messages.get(3)?.message).toEqual(assistant);
    expect(store.messages.get(99)).toBeUndefined();
  });

  it('pages with afterSeq and limit', () => {
    for (let i = 1; i <= 5; i++)
      store.messages.append('c', { role: 'user', content: [{ type: 'text', text: `m${i}` }] });
    expect(store.messages.list('c', { afterSeq: 2, limit: 2 }).map((m) => m.seq)).toEqual([3, 4]);
    expect(store.messages.list('c', { afterSeq: 4 }).map((m) => m.seq)).toEqual([5]);
  });

  it('refuses a message for a chat that does not exist', () => {
    expect(() => store.messages.append('missing', user)).toThrow(/FOREIGN KEY/);
  });

  it('streams an assistant message: begin, checkpoints, finish with a status', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(10_000);
    const ref = store.messages.begin('c');
    expect(store.messages.get(ref.id)).toMatchObject({
      seq: 1,
      status: 'streaming',
      createdAt: 10_000,
      message: { role: 'assistant', content: [] },
    });
    vi.setSystemTime(10_250);
    store.messages.checkpoint(ref.id, [{ type: 'text', text: 'Hel' }]);
    expect(store.messages.get(ref.id)).toMatchObject({
      status: 'streaming',
      updatedAt: 10_250,
      message: { content: [{ type: 'text', text: 'Hel' }] },
    });
    store.messages.finish(ref.id, assistant.content, 'complete');
    expect(store.messages.get(ref.id)).toMatchObject({ status: 'complete', message: assistant });
    expect(() => store.messages.checkpoint(ref.id, [])).toThrow(/not a streaming message/);
    expect(() => store.messages.finish(ref.id, [], 'cut')).toThrow(/not a streaming message/);
    expect(() => store.messages.checkpoint(store.messages.append('c', user).id, [])).toThrow(
      /not a streaming/,
    );
  });

  it.each(['cut', 'cancelled'] as const)('keeps the partial answer of a stream that ended %s', (status) => {
    const ref = store.messages.begin('c');
    store.messages.finish(ref.id, [{ type: 'text', text: 'partial' }], status);
    expect(store.messages.list('c')[0]).toMatchObject({
      status,
      message: { content: [{ type: 'text', text: 'partial' }] },
    });
  });

  it('marks streams left open by a crash as interrupted, keeping their last checkpoint', () => {
    const open = store.messages.begin('c');
    store.messages.checkpoint(open.id, [{ type: 'text', text: 'half an ans' }]);
    const done = store.messages.begin('c');
    store.messages.finish(done.id, [{ type: 'text', text: 'whole' }], 'complete');
    expect(store.messages.markInterrupted()).toEqual([open.id]);
    expect(store.messages.get(open.id)).toMatchObject({
      status: 'interrupted',
      message: { content: [{ type: 'text', text: 'half an ans' }] },
    });
    expect(store.messages.get(done.id)?.status).toBe('complete');
    expect(store.messages.markInterrupted()).toEqual([]);
  });
});

describe('NoteTable', () => {
  it('adds notes in the chat order, unseen until a request carries them', () => {
    store.messages.append('c', user);
    const first = store.notes.add('c', { text: 'task_1 finished: 3 files', taskId: 'task_1' });
    store.messages.append('c', assistant);
    const second = store.notes.add('c', { text: 'task_2 failed' });
    store.notes.add('other', { text: 'elsewhere' });
    expect(first.seq).toBe(2);
    expect(store.notes.unseen('c').map((n) => n.message)).toEqual([
      { role: 'note', text: 'task_1 finished: 3 files', taskId: 'task_1', seen: false },
      { role: 'note', text: 'task_2 failed', taskId: null, seen: false },
    ]);
    store.notes.markSeen([first.id]);
    expect(store.notes.unseen('c').map((n) => n.id)).toEqual([second.id]);
    expect(store.messages.list('c').map((m) => m.message.role)).toEqual([
      'user',
      'note',
      'assistant',
      'note',
    ]);
    expect(store.messages.get(first.id)?.message).toMatchObject({ role: 'note', seen: true });
    // markSeen touches notes only.
    store.notes.markSeen([1]);
    expect(store.messages.get(1)?.message).toEqual(user);
  });
});
