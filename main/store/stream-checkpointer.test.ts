import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssistantPart } from './transcript';
import type { ChatStore } from './chat-store';
import { CHECKPOINT_INTERVAL_MS, StreamCheckpointer } from './stream-checkpointer';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore>;
let store: ChatStore;
beforeEach(() => {
  vi.useFakeTimers();
  temp = tempStore();
  store = temp.store;
  store.chats.create({ id: 'c', title: 'Chat', workspace: '/w' });
});
afterEach(() => {
  vi.useRealTimers();
  temp.dispose();
});

const text = (t: string): AssistantPart[] => [{ type: 'text', text: t }];
const saved = (id: number) => {
  const message = store.messages.get(id)?.message;
  return message?.role === 'assistant' ? message.content : undefined;
};

describe('StreamCheckpointer', () => {
  it('saves at most once per interval while deltas stream, and at least once per interval', () => {
    const { id } = store.messages.begin('c');
    const checkpoint = vi.spyOn(store.messages, 'checkpoint');
    const stream = new StreamCheckpointer(store.messages, id);
    let streamed = '';
    // 100 deltas, one every 10 ms: 1 s of streaming.
    for (let i = 0; i < 100; i++) {
      streamed += `w${i} `;
      stream.update(text(streamed));
      vi.advanceTimersByTime(10);
    }
    expect(checkpoint.mock.calls.length).toBeGreaterThanOrEqual(1000 / CHECKPOINT_INTERVAL_MS - 1);
    expect(checkpoint.mock.calls.length).toBeLessThanOrEqual(1000 / CHECKPOINT_INTERVAL_MS + 1);
    // A pause in the stream: the pending text is saved by the interval's end anyway.
    stream.update(text(`${streamed}tail`));
    vi.advanceTimersByTime(CHECKPOINT_INTERVAL_MS);
    expect(saved(id)).toEqual(text(`${streamed}tail`));
    stream.finish(text(`${streamed}tail.`), 'complete');
    expect(store.messages.get(id)?.status).toBe('complete');
    expect(saved(id)).toEqual(text(`${streamed}tail.`));
  });

  it('writes nothing after finish, and refuses updates', () => {
    const { id } = store.messages.begin('c');
    const stream = new StreamCheckpointer(store.messages, id, 100);
    stream.update(text('a'));
    stream.finish(text('ab'), 'cancelled');
    vi.advanceTimersByTime(1000);
    expect(store.messages.get(id)).toMatchObject({ status: 'cancelled', message: { content: text('ab') } });
    expect(() => stream.update(text('abc'))).toThrow(/already finished/);
  });

  it('flushes on demand', () => {
    const { id } = store.messages.begin('c');
    const stream = new StreamCheckpointer(store.messages, id);
    stream.update(text('now'));
    expect(saved(id)).toEqual([]);
    stream.flush();
    expect(saved(id)).toEqual(text('now'));
  });

  it('reports a failed timed write at the next call instead of crashing the process', () => {
    const { id } = store.messages.begin('c');
    const finished: unknown[] = [];
    const stream = new StreamCheckpointer(
      {
        checkpoint: () => {
          throw new Error('disk full');
        },
        finish: (...args) => finished.push(args),
      },
      id,
    );
    stream.update(text('x'));
    vi.advanceTimersByTime(CHECKPOINT_INTERVAL_MS);
    expect(() => stream.update(text('xy'))).toThrow('disk full');
    // The final content still gets its chance, and supersedes the failed checkpoint.
    stream.finish(text('xyz'), 'complete');
    expect(finished).toEqual([[id, text('xyz'), 'complete']]);
  });
});
