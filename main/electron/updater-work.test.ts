// WorkWatch on the host's event shapes: a turn runs from turn.started to turn.finished, tasks by the registry's count.
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../host/app-service';
import { WorkWatch } from './updater-work';

const turn = (type: 'turn.started' | 'turn.finished', chatId: string): HostEvent =>
  type === 'turn.started'
    ? { channel: 'chat.event', payload: { type, chatId, turnId: 't' } }
    : {
        channel: 'chat.event',
        payload: { type, chatId, turnId: 't', status: 'completed', text: '', rounds: 1 },
      };

describe('WorkWatch', () => {
  it('is busy while any chat runs a turn, and idle once every one finished', () => {
    const watch = new WorkWatch(() => 0);
    expect(watch.busy()).toBe(false);
    expect(watch.observe(turn('turn.started', 'a'))).toBe(true);
    watch.observe(turn('turn.started', 'b'));
    watch.observe(turn('turn.finished', 'a'));
    expect(watch.busy()).toBe(true);
    watch.observe(turn('turn.finished', 'b'));
    expect(watch.busy()).toBe(false);
  });

  it('is busy while a background task runs, and tells a task change apart from other events', () => {
    let tasks = 1;
    const watch = new WorkWatch(() => tasks);
    expect(watch.busy()).toBe(true);
    tasks = 0;
    expect(watch.observe({ channel: 'tools.changed', payload: { count: 3 } })).toBe(false);
    expect(
      watch.observe({
        channel: 'chat.event',
        payload: { type: 'text.delta', chatId: 'a', messageId: 1, delta: 'x' },
      }),
    ).toBe(false);
    expect(watch.busy()).toBe(false);
  });
});
