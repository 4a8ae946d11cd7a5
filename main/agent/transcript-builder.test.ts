// The transcript the next request carries: every call answered, notes placed where a provider takes them.
import { describe, expect, it } from 'vitest';
import type { StoredMessage } from '../store';
import { buildTranscript } from './transcript-builder';

let seq = 0;
const row = (message: StoredMessage['message']): StoredMessage => ({
  id: ++seq,
  chatId: 'c',
  seq,
  status: 'complete',
  createdAt: seq,
  updatedAt: seq,
  message,
});
const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'write_result', args: '{}' });
const result = (callId: string, text: string) => ({
  callId,
  name: 'write_result',
  content: [{ type: 'text' as const, text }],
  isError: false,
});

describe('buildTranscript', () => {
  // write_result writes "Result saved" as a note while its call runs, so the note lands between the call and its
  // result. It ended the round there: both calls were answered "interrupted" and their real results dropped.
  it('keeps a note written while calls ran until after their results', () => {
    const transcript = buildTranscript([
      row({ role: 'user', content: [{ type: 'text', text: 'save both' }] }),
      row({ role: 'assistant', content: [call('a'), call('b')] }),
      row({ role: 'note', text: 'Result saved: a.txt', taskId: null, seen: true }),
      row({ role: 'tool_results', results: [result('a', 'Saved a.txt'), result('b', 'Saved b.txt')] }),
      row({ role: 'assistant', content: [{ type: 'text', text: 'done' }] }),
    ]);
    expect(transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool_results', 'user', 'assistant']);
    const results = transcript[2];
    expect(results?.role === 'tool_results' ? results.results.map((r) => r.content) : []).toEqual([
      [{ type: 'text', text: 'Saved a.txt' }],
      [{ type: 'text', text: 'Saved b.txt' }],
    ]);
    expect(transcript[3]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '[note] Result saved: a.txt' }],
    });
  });

  it('still answers calls that never got a result "interrupted", then gives the held note', () => {
    const transcript = buildTranscript([
      row({ role: 'assistant', content: [call('a')] }),
      row({ role: 'note', text: 'Result saved: a.txt', taskId: null, seen: true }),
    ]);
    expect(transcript.map((m) => m.role)).toEqual(['assistant', 'tool_results', 'user']);
    const results = transcript[1];
    expect(results?.role === 'tool_results' ? results.results[0]?.isError : null).toBe(true);
  });
});
