// Turns stored messages into the transcript a provider accepts: notes folded into user text, every tool call answered.
import type { StoredMessage } from '../store';
import type { AssistantPart, ToolResultPart, TranscriptMessage, UserPart } from '../store/transcript';

/** The transcript for the next request. Unanswered calls (a crash or kill mid-tool) get an `interrupted` error result. */
export function buildTranscript(stored: StoredMessage[]): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  let pending: AssistantPart[] = [];
  // A note written while calls run (write_result's "Result saved") waits for their results: placed between a call
  // and its result it would end the round, and the real results would be dropped as unanswered.
  let held: UserPart[] = [];
  const release = () => {
    if (held.length > 0) pushUser(out, held);
    held = [];
  };
  const flushUnanswered = (answered: Set<string>) => {
    const missing = pending.filter((p) => p.type === 'tool_call' && !answered.has(p.id));
    if (missing.length === 0) return;
    const results: ToolResultPart[] = missing.map((p) => ({
      callId: p.type === 'tool_call' ? p.id : '',
      name: p.type === 'tool_call' ? p.name : '',
      content: [
        {
          type: 'text',
          text: 'interrupted: the app stopped before this call finished; it may or may not have run',
        },
      ],
      isError: true,
    }));
    const last = out.at(-1);
    if (last?.role === 'tool_results') last.results.push(...results);
    else out.push({ role: 'tool_results', results });
  };
  for (const row of stored) {
    const message = row.message;
    if (message.role === 'note') {
      const note: UserPart = { type: 'text', text: `[note] ${message.text}` };
      if (pending.some((p) => p.type === 'tool_call')) {
        held.push(note);
        continue;
      }
      pending = [];
      pushUser(out, [note]);
      continue;
    }
    switch (message.role) {
      case 'user':
        flushUnanswered(new Set());
        pending = [];
        release();
        pushUser(out, message.content);
        break;
      case 'assistant': {
        flushUnanswered(new Set());
        release();
        const content = message.content.filter((p) => p.type !== 'text' || p.text.length > 0);
        if (content.length === 0) {
          pending = [];
          break;
        }
        out.push({ role: 'assistant', content });
        pending = content;
        break;
      }
      case 'tool_results': {
        const ids = new Set(pending.flatMap((p) => (p.type === 'tool_call' ? [p.id] : [])));
        const results = message.results.filter((r) => ids.has(r.callId));
        out.push({ role: 'tool_results', results });
        flushUnanswered(new Set(results.map((r) => r.callId)));
        pending = [];
        release();
        break;
      }
    }
  }
  flushUnanswered(new Set());
  release();
  return out;
}

function pushUser(out: TranscriptMessage[], content: UserPart[]): void {
  const last = out.at(-1);
  if (last?.role === 'user') last.content.push(...content);
  else out.push({ role: 'user', content: [...content] });
}
