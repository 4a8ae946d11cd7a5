// Both APIs reject a history in which a tool call is not answered right after it. The turn loop keeps
// the transcript valid; this pass makes rendering robust anyway (a crash between call and result, a
// note filed between them), so one bad message can never make every later request of a chat fail.
import type { ToolResultPart, TranscriptMessage } from '../../store/transcript';

/** The result given to a call the transcript never answered. */
export const MISSING_RESULT_TEXT = 'No result was recorded for this call (it was interrupted).';

/** Puts each assistant message's results right after it, in call order; unanswered calls get an error result, stray results are dropped. */
export function pairToolResults(messages: readonly TranscriptMessage[]): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i]!;
    i += 1;
    // A result with no call before it cannot be rendered; the calls' own pass below consumes every real one.
    if (message.role === 'tool_results') continue;
    out.push(message);
    if (message.role !== 'assistant') continue;
    const calls = message.content.flatMap((part) => (part.type === 'tool_call' ? [part] : []));
    if (calls.length === 0) continue;
    const wanted = new Set(calls.map((call) => call.id));
    const found = new Map<string, ToolResultPart>();
    const between: TranscriptMessage[] = [];
    while (i < messages.length && messages[i]!.role !== 'assistant') {
      const next = messages[i]!;
      i += 1;
      if (next.role !== 'tool_results') {
        between.push(next);
        continue;
      }
      for (const result of next.results) {
        if (wanted.has(result.callId) && !found.has(result.callId)) found.set(result.callId, result);
      }
    }
    const results = calls.map(
      (call): ToolResultPart =>
        found.get(call.id) ?? {
          callId: call.id,
          name: call.name,
          content: [{ type: 'text', text: MISSING_RESULT_TEXT }],
          isError: true,
        },
    );
    out.push({ role: 'tool_results', results }, ...between);
  }
  return out;
}
