// The neutral transcript every provider renders to its own wire format.
import type { ContentPart } from '../../tools/sdk/types';

/**
 * A tool call the model made; `args` is the raw JSON text as streamed (it may be malformed). A call whose arguments
 * passed the size limit keeps only a marker object in `args` (`{"_omitted":"arguments too large: …"}`) and says how
 * big they were in `tooLarge`; the arguments themselves are never kept.
 */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  args: string;
  tooLarge?: { bytes: number; limit: number };
}

/** What a user message holds. */
export type UserPart = { type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string };

/**
 * What the model reasoned, in place among the message's parts. Anthropic's thinking blocks carry a `signature` and
 * must go back unchanged while a tool-use turn goes on; a redacted block has no text, only `redactedData`. An
 * OpenAI-compatible server's reasoning names the wire `field` it came in (`reasoning_content`, `reasoning`), so it can
 * be sent back where the server needs it (docs/agent-loop.md, "Reasoning"). Never passed to a tool.
 */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: string;
  redactedData?: string;
  field?: string;
}

/** What an assistant message holds. */
export type AssistantPart = { type: 'text'; text: string } | ToolCallPart | ReasoningPart;

/** The result of one tool call, answered in the message after the call. */
export interface ToolResultPart {
  callId: string;
  name: string;
  content: ContentPart[];
  isError: boolean;
}

/** One message of the neutral transcript. */
export type TranscriptMessage =
  | { role: 'user'; content: UserPart[] }
  | { role: 'assistant'; content: AssistantPart[] }
  | { role: 'tool_results'; results: ToolResultPart[] };

/** A tool as a request declares it. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
