import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatStore } from './chat-store';
import { ftsQuery, likeSnippet } from './search';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore>;
let store: ChatStore;
const say = (chatId: string, text: string) =>
  store.messages.append(chatId, { role: 'user', content: [{ type: 'text', text }] });

beforeEach(() => {
  temp = tempStore();
  store = temp.store;
  store.chats.create({ id: 'a', title: 'A', workspace: '/w' });
  store.chats.create({ id: 'b', title: 'B', workspace: '/w' });
});
afterEach(() => temp.dispose());

describe('search (FTS5)', () => {
  it('finds messages across chats or in one, with marked snippets', () => {
    const hit = say('a', 'Please rotate the deployment credentials before Friday.');
    say('a', 'Nothing to see here.');
    const other = say('b', 'Deployment failed on Friday night.');
    expect(store.search('deployment friday').map((h) => [h.chatId, h.messageId])).toEqual(
      expect.arrayContaining([
        ['a', hit.id],
        ['b', other.id],
      ]),
    );
    const inA = store.search('deployment', { chatId: 'a' });
    expect(inA).toEqual([
      {
        chatId: 'a',
        messageId: hit.id,
        seq: 1,
        role: 'user',
        snippet: 'Please rotate the «deployment» credentials before Friday.',
        createdAt: expect.any(Number),
      },
    ]);
  });

  it('matches word prefixes, ignores case and accents, and honours the limit', () => {
    for (let i = 0; i < 5; i++) say('a', `Café number ${i} reviewed`);
    expect(store.search('CAFE rev').length).toBe(5);
    expect(store.search('cafe', { limit: 2 })).toHaveLength(2);
  });

  it('indexes assistant text, tool results and notes, and follows checkpoints', () => {
    const stream = store.messages.begin('a');
    store.messages.checkpoint(stream.id, [{ type: 'text', text: 'first draft' }]);
    expect(store.search('draft').map((h) => h.messageId)).toEqual([stream.id]);
    store.messages.finish(stream.id, [{ type: 'text', text: 'final answer' }], 'complete');
    expect(store.search('draft')).toEqual([]);
    expect(store.search('final').map((h) => h.role)).toEqual(['assistant']);
    store.messages.append('a', {
      role: 'tool_results',
      results: [
        { callId: 'c', name: 'grep', content: [{ type: 'text', text: 'zebra.txt:3' }], isError: false },
      ],
    });
    store.notes.add('a', { text: 'background zebra count finished' });
    expect(
      store
        .search('zebra')
        .map((h) => h.role)
        .sort(),
    ).toEqual(['note', 'tool_results']);
  });

  it('reads query syntax as plain words, never as an error', () => {
    say('a', 'a "quoted" NEAR thing (with) parens* and AND OR NOT');
    for (const query of ['"quoted', 'NEAR(', 'parens*', 'AND OR', '(with)', '-x', 'col:thing', "it's"]) {
      expect(() => store.search(query)).not.toThrow();
    }
    expect(store.search('"quoted"')).toHaveLength(1);
    expect(store.search('AND OR NOT')).toHaveLength(1);
    expect(store.search('   ')).toEqual([]);
  });

  it('builds quoted prefix queries', () => {
    expect(ftsQuery(' foo  "bar" ')).toBe('"foo"* """bar"""*');
  });
});

describe('likeSnippet (fallback without FTS5)', () => {
  it('marks the first match with context around it', () => {
    expect(likeSnippet('Hello World', 'world')).toBe('Hello «World»');
    const long = `${'x'.repeat(100)} needle ${'y'.repeat(100)}`;
    const snippet = likeSnippet(long, 'needle');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet).toContain('«needle»');
  });
});
