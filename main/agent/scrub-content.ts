// An assistant message's parts with every secret scrubbed out, as they are stored, shown and sent again.
import type { Redactor } from '../core/redactor';
import type { AssistantPart, ReasoningPart } from '../store/transcript';

/** `content` scrubbed: text and tool calls as any value, reasoning so that a changed block is never sent back. */
export function scrubbedContent(content: readonly AssistantPart[], redactor: Redactor): AssistantPart[] {
  return content.map((part) =>
    part.type === 'reasoning' ? scrubbedReasoning(part, redactor) : redactor.redactDeep(part),
  );
}

/**
 * Reasoning with any secret scrubbed out. Scrubbing breaks a signed block: it loses its signature (and a redacted
 * block its data), so it is kept to show but never sent back, and the turn goes on without thinking rather than send
 * the secret to the model again (docs/agent-loop.md, "Reasoning").
 */
function scrubbedReasoning(part: ReasoningPart, redactor: Redactor): ReasoningPart {
  const text = redactor.redact(part.text);
  const signature = part.signature === undefined ? undefined : redactor.redact(part.signature);
  const data = part.redactedData === undefined ? undefined : redactor.redact(part.redactedData);
  if (text === part.text && signature === part.signature && data === part.redactedData) return { ...part };
  const { signature: _signature, redactedData: _data, ...rest } = part;
  return { ...rest, text };
}
