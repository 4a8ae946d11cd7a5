import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatStore } from './chat-store';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore>;
let store: ChatStore;
beforeEach(() => {
  temp = tempStore();
  store = temp.store;
  store.chats.create({ id: 'c', title: 'Chat', workspace: '/w' });
  store.chats.create({ id: 'd', title: 'Other', workspace: '/w' });
});
afterEach(() => temp.dispose());

describe('TodoTable', () => {
  it('replaces a chat checklist whole and returns it in order', () => {
    expect(store.todos.get('c')).toEqual([]);
    store.todos.set('c', [
      { text: 'read the spec', status: 'done' },
      { text: 'write the store', status: 'in_progress' },
      { text: 'bench it', status: 'pending' },
    ]);
    store.todos.set('d', [{ text: 'other chat', status: 'pending' }]);
    store.todos.set('c', [
      { text: 'write the store', status: 'done' },
      { text: 'bench it', status: 'in_progress' },
    ]);
    expect(store.todos.get('c')).toEqual([
      { text: 'write the store', status: 'done' },
      { text: 'bench it', status: 'in_progress' },
    ]);
    expect(store.todos.get('d')).toHaveLength(1);
    store.todos.set('c', []);
    expect(store.todos.get('c')).toEqual([]);
  });

  it('leaves the old list in place when a write fails', () => {
    store.todos.set('c', [{ text: 'keep me', status: 'pending' }]);
    const bad = [{ text: 'x', status: 'later' }] as unknown as Parameters<typeof store.todos.set>[1];
    expect(() => store.todos.set('c', bad)).toThrow(/CHECK/);
    expect(store.todos.get('c')).toEqual([{ text: 'keep me', status: 'pending' }]);
  });
});

describe('LoadedSchemaTable', () => {
  it('keeps each chat its names in load order, first place winning for repeats', () => {
    expect(store.schemas.get('c')).toEqual([]);
    store.schemas.set('c', ['web_fetch', 'read_file', 'web_fetch', 'git_log']);
    store.schemas.set('d', ['x']);
    expect(store.schemas.get('c')).toEqual(['web_fetch', 'read_file', 'git_log']);
    store.schemas.set('c', ['web_fetch', 'read_file', 'git_log', 'pdf_text']);
    expect(store.schemas.get('c')).toEqual(['web_fetch', 'read_file', 'git_log', 'pdf_text']);
    expect(store.schemas.get('d')).toEqual(['x']);
  });
});
