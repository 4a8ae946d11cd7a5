// A clock that jumps backwards (NTP, a suspended laptop, a person fixing the time) while an answer streams: the
// checkpoint pace counted on Date.now, so a jump of an hour back put the next save an hour off, and a kill -9 in that
// hour lost everything streamed since the last save (docs/agent-loop.md, "What is saved, and when": every 250 ms).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AssistantPart } from './transcript';
import { CHECKPOINT_INTERVAL_MS, StreamCheckpointer } from './stream-checkpointer';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore> | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  temp?.dispose();
  temp = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (t: string): AssistantPart[] => [{ type: 'text', text: t }];

describe('the wall clock jumps back an hour mid-stream', () => {
  it('still saves the streamed text within the interval', async () => {
    temp = tempStore();
    const store = temp.store;
    store.chats.create({ id: 'c', title: 'Chat', workspace: '/w' });
    const { id } = store.messages.begin('c');
    const stream = new StreamCheckpointer(store.messages, id);
    stream.update(text('first words'));
    // The first words are saved at the real time.
    await sleep(CHECKPOINT_INTERVAL_MS + 50);
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() - 3_600_000);
    await sleep(CHECKPOINT_INTERVAL_MS + 50);
    stream.update(text('first words, and what streamed after the jump'));
    await sleep(CHECKPOINT_INTERVAL_MS * 2 + 100);
    const message = store.messages.get(id)?.message;
    expect(message?.role === 'assistant' ? message.content : undefined).toEqual(
      text('first words, and what streamed after the jump'),
    );
    stream.finish(text('done'), 'complete');
  });
});
