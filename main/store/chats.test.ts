import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatStore } from './chat-store';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore>;
let store: ChatStore;
beforeEach(() => {
  temp = tempStore();
  store = temp.store;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(1_000_000);
});
afterEach(() => {
  vi.useRealTimers();
  temp.dispose();
});

describe('ChatTable', () => {
  it('creates chats with a given or generated id, and gets them', () => {
    const given = store.chats.create({ id: 'c1', title: 'First', workspace: '/w1' });
    expect(given).toEqual({
      id: 'c1',
      title: 'First',
      workspace: '/w1',
      createdAt: 1_000_000,
      updatedAt: 1_000_000,
      reasoning: 'default',
      model: null,
    });
    const generated = store.chats.create({ title: 'Second', workspace: '/w2' });
    expect(generated.id).toMatch(/^chat_[0-9a-f-]{36}$/);
    expect(store.chats.get(generated.id)).toEqual(generated);
    expect(store.chats.get('nope')).toBeUndefined();
    expect(() => store.chats.create({ id: 'c1', title: 'again', workspace: '/w' })).toThrow(/UNIQUE/);
  });

  it('lists most recently active first, with a limit and a title search', () => {
    store.chats.create({ id: 'a', title: 'Tax return 2024', workspace: '/w' });
    vi.setSystemTime(2_000_000);
    store.chats.create({ id: 'b', title: 'Holiday plans', workspace: '/w' });
    vi.setSystemTime(3_000_000);
    store.chats.create({ id: 'c', title: '100% done_ok', workspace: '/w' });
    expect(store.chats.list().map((c) => c.id)).toEqual(['c', 'b', 'a']);
    expect(store.chats.list({ limit: 2 }).map((c) => c.id)).toEqual(['c', 'b']);
    expect(store.chats.list({ search: 'tax' }).map((c) => c.id)).toEqual(['a']);
    // LIKE wildcards in the search are literal.
    expect(store.chats.list({ search: '%' }).map((c) => c.id)).toEqual(['c']);
    expect(store.chats.list({ search: 'o_e' }).map((c) => c.id)).toEqual([]);

    vi.setSystemTime(4_000_000);
    store.messages.append('a', { role: 'user', content: [{ type: 'text', text: 'hi' }] });
    expect(store.chats.list().map((c) => c.id)).toEqual(['a', 'c', 'b']);
    expect(store.chats.get('a')?.updatedAt).toBe(4_000_000);
  });

  it('renames and moves chats', () => {
    store.chats.create({ id: 'c', title: 'Old', workspace: '/old' });
    vi.setSystemTime(2_000_000);
    expect(store.chats.rename('c', 'New')).toBe(true);
    expect(store.chats.setWorkspace('c', '/new')).toBe(true);
    expect(store.chats.get('c')).toMatchObject({ title: 'New', workspace: '/new', updatedAt: 2_000_000 });
    expect(store.chats.rename('missing', 'x')).toBe(false);
    expect(store.chats.setWorkspace('missing', '/x')).toBe(false);
  });

  it("keeps a chat's own model, and null to follow the settings' again", () => {
    store.chats.create({ id: 'c', title: 'Models', workspace: '/w' });
    expect(store.chats.setModel('c', 'org/model:tag-1')).toBe(true);
    expect(store.chats.get('c')?.model).toBe('org/model:tag-1');
    expect(store.chats.setModel('c', null)).toBe(true);
    expect(store.chats.get('c')?.model).toBeNull();
    expect(store.chats.setModel('nope', 'x')).toBe(false);
    // The schema bounds what a model id may be.
    expect(() => store.chats.setModel('c', '')).toThrow(/CHECK/);
    expect(() => store.chats.setModel('c', 'm'.repeat(201))).toThrow(/CHECK/);
  });

  it('deletes a chat with everything that hangs off it', () => {
    store.chats.create({ id: 'gone', title: 'Gone', workspace: '/w' });
    store.chats.create({ id: 'kept', title: 'Kept', workspace: '/w' });
    for (const chatId of ['gone', 'kept']) {
      const message = store.messages.append(chatId, {
        role: 'user',
        content: [{ type: 'text', text: 'needle' }],
      });
      store.notes.add(chatId, { text: 'task done' });
      store.toolCalls.queued({
        chatId,
        callId: 'c1',
        tool: 't',
        source: { kind: 'builtin' },
        args: '{}',
        messageId: message.id,
      });
      store.approvals.requested({ chatId, callId: 'c1', tool: 't' });
      store.tasks.upsert({
        id: `task_${chatId}`,
        chatId,
        tool: 't',
        summary: '',
        status: 'succeeded',
        startedAt: 1,
        endedAt: 2,
        limitMs: null,
        outputTail: '',
        result: 'r',
        error: null,
      });
      store.todos.set(chatId, [{ text: 'x', status: 'pending' }]);
      store.schemas.set(chatId, ['read_file']);
    }
    expect(store.chats.delete('gone')).toBe(true);
    expect(store.chats.delete('gone')).toBe(false);
    expect(store.chats.get('gone')).toBeUndefined();
    expect(store.messages.list('gone')).toEqual([]);
    expect(store.toolCalls.list('gone')).toEqual([]);
    expect(store.approvals.list('gone')).toEqual([]);
    expect(store.tasks.list({ chatId: 'gone' })).toEqual([]);
    expect(store.todos.get('gone')).toEqual([]);
    expect(store.schemas.get('gone')).toEqual([]);
    // The search index forgets the deleted chat's messages too.
    expect(store.search('needle').map((h) => h.chatId)).toEqual(['kept']);
    expect(store.messages.list('kept')).toHaveLength(2);
    expect(store.integrityCheck().ok).toBe(true);
  });
});
