import { describe, expect, it } from 'vitest';
import type { MessageView } from '../../preload/contract';
import {
  clipMessage,
  MESSAGE_TEXT_MIN_CHARS,
  SNAPSHOT_MESSAGE_BUDGET,
  snapshotMessages,
} from './message-text';

const base = { id: 1, seq: 1, createdAt: 0, status: 'complete' as const };
const answer = (
  parts: Array<
    { type: 'text' | 'reasoning'; text: string } | { type: 'tool_call'; callId: string; name: string }
  >,
  status: MessageView['status'] = 'complete',
): MessageView => ({
  kind: 'assistant',
  ...base,
  status,
  text: parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(''),
  parts,
  usage: null,
});

describe('clipMessage', () => {
  it('spends the limit over reasoning and text in order, keeps every call part, and counts what was left out', () => {
    const view = answer([
      { type: 'reasoning', text: 'r'.repeat(6) },
      { type: 'text', text: 'a'.repeat(6) },
      { type: 'tool_call', callId: 'x', name: 'run_command' },
      { type: 'text', text: 'b'.repeat(6) },
    ]);
    const clipped = clipMessage(view, 10);
    expect(clipped.cut).toBe(8);
    expect(clipped.kind === 'assistant' && clipped.parts).toEqual([
      { type: 'reasoning', text: 'rrrrrr' },
      { type: 'text', text: 'aaaa' },
      { type: 'tool_call', callId: 'x', name: 'run_command' },
      { type: 'text', text: '' },
    ]);
    expect(clipped.kind === 'assistant' && clipped.text).toBe('aaaa');
    expect(clipMessage(view, 100)).toBe(view);
  });

  it("clips a person's message and a note, and leaves a streaming answer as it is", () => {
    const user: MessageView = { kind: 'user', ...base, text: 'u'.repeat(20), attachments: [] };
    expect(clipMessage(user, 5)).toMatchObject({ text: 'uuuuu', cut: 15 });
    const streaming = answer([{ type: 'text', text: 'x'.repeat(50) }], 'streaming');
    expect(clipMessage(streaming, 5)).toBe(streaming);
  });
});

describe('snapshotMessages', () => {
  it('gives the newest messages their whole start until the budget is spent, older ones a short start', () => {
    const big = 'm'.repeat(150_000);
    const views: MessageView[] = Array.from({ length: 200 }, (_, i) => ({
      kind: 'note',
      ...base,
      id: i,
      text: big,
      taskId: null,
    }));
    const shown = snapshotMessages(views);
    expect(shown.at(-1)?.text.length).toBe(big.length);
    expect(shown[0]?.text.length).toBe(MESSAGE_TEXT_MIN_CHARS);
    expect(shown[0]?.cut).toBe(big.length - MESSAGE_TEXT_MIN_CHARS);
    const total = shown.reduce((sum, view) => sum + view.text.length, 0);
    expect(total).toBeLessThan(SNAPSHOT_MESSAGE_BUDGET + big.length + 200 * MESSAGE_TEXT_MIN_CHARS);
  });
});
