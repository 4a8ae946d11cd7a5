import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatStore } from './chat-store';
import { openChatStore } from './chat-store';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore>;
let store: ChatStore;
beforeEach(() => {
  temp = tempStore();
  store = temp.store;
  store.chats.create({ id: 'c', title: 'Chat', workspace: '/w' });
});
afterEach(() => temp.dispose());

describe('ChatStore', () => {
  it('commits several writes together in a transaction, or none if it throws', () => {
    const ref = store.transaction(() => {
      const message = store.messages.append('c', { role: 'assistant', content: [] });
      store.toolCalls.queued({
        chatId: 'c',
        callId: 'k',
        tool: 't',
        source: { kind: 'builtin' },
        args: '{}',
        messageId: message.id,
      });
      return message;
    });
    expect(store.toolCalls.get('c', 'k')?.messageId).toBe(ref.id);
    expect(() =>
      store.transaction(() => {
        store.messages.append('c', { role: 'user', content: [{ type: 'text', text: 'lost' }] });
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(store.messages.list('c')).toHaveLength(1);
  });

  it('recovers after a crash: interrupted tasks, streams and calls, and the groups to kill', () => {
    store.tasks.upsert({
      id: 'task_1',
      chatId: 'c',
      tool: 'background_command',
      summary: 'make',
      status: 'running',
      startedAt: 1,
      endedAt: null,
      limitMs: null,
      outputTail: '',
      result: null,
      error: null,
    });
    const stream = store.messages.begin('c');
    store.toolCalls.queued({ chatId: 'c', callId: 'k', tool: 't', source: { kind: 'builtin' }, args: '{}' });
    store.processGroups.record(
      { pgid: 4242, command: 'make', startedAt: 1, startTime: '1', bootId: 'b' },
      { taskId: 'task_1' },
    );
    store.close();

    const reopened = openChatStore(temp.file);
    const recovery = reopened.recover();
    expect(recovery.tasks.map((t) => [t.id, t.status])).toEqual([['task_1', 'interrupted']]);
    expect(recovery.messageIds).toEqual([stream.id]);
    expect(recovery.toolCalls.map((c) => [c.callId, c.status])).toEqual([['k', 'interrupted']]);
    expect(recovery.processGroups.map((g) => g.pgid)).toEqual([4242]);
    // A second recovery finds nothing new, except groups not yet removed.
    const again = reopened.recover();
    expect([again.tasks, again.messageIds, again.toolCalls]).toEqual([[], [], []]);
    reopened.close();
  });
});
