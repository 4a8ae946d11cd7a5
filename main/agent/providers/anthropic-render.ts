// The neutral transcript rendered as an Anthropic Messages API request body.
import type { AssistantPart, ToolResultPart, TranscriptMessage } from '../../store/transcript';
import { pairToolResults } from './pair-results';
import type { ModelRequest } from './provider';
import type { WirePart } from './wire-content';
import { invalidArgumentsNote, toWireParts, wireArguments } from './wire-content';

/** A prompt-cache breakpoint: the API caches the request's prefix up to and including the block that carries it. */
export type CacheControl = { type: 'ephemeral' };

type TextBlock = { type: 'text'; text: string; cache_control?: CacheControl };
type ImageBlock = {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string };
  cache_control?: CacheControl;
};

/** One content block of an Anthropic message, as this client sends them. */
export type AnthropicBlock =
  | TextBlock
  | ImageBlock
  | {
      type: 'tool_use';
      id: string;
      name: string;
      input: Record<string, unknown>;
      cache_control?: CacheControl;
    }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: Array<TextBlock | ImageBlock>;
      is_error?: true;
      cache_control?: CacheControl;
    };

/** One Anthropic message. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** The body of POST /v1/messages. */
export interface AnthropicBody {
  model: string;
  max_tokens: number;
  stream: true;
  /** A string, or (with a cache breakpoint) one text block. */
  system?: string | TextBlock[];
  messages: AnthropicMessage[];
  tools?: Array<{
    name: string;
    description: string;
    input_schema: Record<string, unknown>;
    cache_control?: CacheControl;
  }>;
  tool_choice?: { type: 'none' };
  thinking?: { type: 'enabled'; budget_tokens: number };
}

/** Anthropic's smallest thinking budget. */
const MIN_THINKING_BUDGET = 1024;

// The most output tokens each model line takes (Anthropic's model table), longest prefix first; an unknown model
// gets 32,000, the smallest limit of a model that thinks, so a request never asks more than a model allows.
const OUTPUT_CAPS: ReadonlyArray<[prefix: string, tokens: number]> = [
  ['claude-opus-4-5', 64_000],
  ['claude-opus-4.5', 64_000],
  ['claude-opus-4', 32_000],
  ['claude-sonnet-4', 64_000],
  ['claude-haiku-4', 64_000],
  ['claude-3-7-sonnet', 64_000],
  ['claude-3-5', 8192],
  ['claude-3-', 4096],
];
const DEFAULT_OUTPUT_CAP = 32_000;

/** The output limit of `model` (a provider prefix such as `anthropic/` is ignored). */
export function outputCap(model: string): number {
  const id = model.slice(model.lastIndexOf('/') + 1);
  return OUTPUT_CAPS.find(([prefix]) => id.startsWith(prefix))?.[1] ?? DEFAULT_OUTPUT_CAP;
}

// Anthropic's pattern for declared tool names.
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Renders a request: system prompt, merged user turns with tool results first, tools as input_schema. */
export function renderAnthropicRequest(request: ModelRequest, defaultMaxTokens: number): AnthropicBody {
  const thinking = request.reasoning !== undefined && thinkingFits(request.messages);
  const messages = renderAnthropicMessages(request.messages, { thinking });
  const body: AnthropicBody = {
    model: request.model,
    max_tokens: request.maxTokens ?? defaultMaxTokens,
    stream: true,
    messages,
  };
  const cap = outputCap(request.model);
  if (thinking && request.reasoning) {
    // The budget is part of max_tokens: the answer keeps its own room on top of it, within the model's output limit,
    // and the budget keeps 1,024 tokens of that room whatever it asked.
    body.max_tokens = Math.min(body.max_tokens + request.reasoning.budgetTokens, cap);
    const budget = Math.max(
      MIN_THINKING_BUDGET,
      Math.min(request.reasoning.budgetTokens, body.max_tokens - 1024),
    );
    body.thinking = { type: 'enabled', budget_tokens: budget };
  } else body.max_tokens = Math.min(body.max_tokens, cap);
  if (request.system !== '') body.system = request.system;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    }));
  } else {
    // A history holding tool blocks must declare tools on the API and on proxies such as Bedrock; the
    // summary call offers none, so the ones used are declared and forbidden.
    const used = [
      ...new Set(messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : [])))),
    ];
    const stubs = used.filter((name) => TOOL_NAME.test(name));
    if (stubs.length > 0) {
      body.tools = stubs.map((name) => ({
        name,
        description: 'Not available in this request.',
        input_schema: { type: 'object' },
      }));
      body.tool_choice = { type: 'none' };
    }
  }
  return body;
}

/** The API's limit of cache breakpoints per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * Puts prompt-cache breakpoints on a rendered request (docs/agent-loop.md, "Prompt caching"): on the tools + system
 * prefix (the system block, else the last tool), on the end of the previous round's input and on the end of this
 * request. The next round sends the same prefix and one round more, so it reads the cache up to this request's end and
 * writes only what is new; a chat's later turns do the same. The first request of a chat (no assistant message yet)
 * gets none: a prefix that is never sent again would pay the cache write (1.25×) for nothing. Returns how many were set.
 */
export function addCacheBreakpoints(body: AnthropicBody): number {
  if (!body.messages.some((message) => message.role === 'assistant')) return 0;
  const marks: Array<{ cache_control?: CacheControl }> = [];
  if (typeof body.system === 'string' && body.system !== '') {
    const system: TextBlock = { type: 'text', text: body.system };
    body.system = [system];
    marks.push(system);
  } else if (body.tools && body.tools.length > 0) {
    marks.push(body.tools[body.tools.length - 1] as { cache_control?: CacheControl });
  }
  // The ends of the last user messages, newest first: this request's end, then the previous round's.
  const ends = body.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.content[message.content.length - 1])
    .filter(
      (last): last is Extract<AnthropicBlock, { cache_control?: CacheControl }> =>
        last !== undefined && last.type !== 'thinking' && last.type !== 'redacted_thinking',
    )
    .reverse();
  for (const end of ends.slice(0, MAX_CACHE_BREAKPOINTS - marks.length).slice(0, 2)) marks.push(end);
  for (const mark of marks) mark.cache_control = { type: 'ephemeral' };
  return marks.length;
}

/**
 * Whether thinking can be asked for with these messages. While a tool-use turn goes on (an assistant message of the
 * current turn called tools), the API wants the turn's first assistant message to open with the signed thinking block
 * it streamed; later responses of the same turn may come without one. A turn begun without thinking, or whose
 * thinking was altered (a secret scrubbed out of it), goes on without (docs/agent-loop.md, "Reasoning").
 */
function thinkingFits(transcript: readonly TranscriptMessage[]): boolean {
  const turn = transcript
    .slice(currentTurnStart(transcript))
    .flatMap((message) => (message.role === 'assistant' ? [message] : []));
  if (!turn.some((message) => message.content.some((p) => p.type === 'tool_call'))) return true;
  // The first block the turn renders to: blank text and reasoning that cannot go back render to nothing.
  const first = turn[0]?.content.find(
    (p) => (p.type === 'text' && p.text.trim() !== '') || p.type === 'tool_call' || sendable(p),
  );
  return first !== undefined && sendable(first);
}

/** Whether a part is reasoning that can go back to Anthropic: signed, or a redacted block with its data. */
function sendable(part: AssistantPart): boolean {
  return part.type === 'reasoning' && (part.redactedData !== undefined || Boolean(part.signature));
}

/** Where the current turn starts: after the last message the person (or a note) added; tool results do not count. */
function currentTurnStart(transcript: readonly TranscriptMessage[]): number {
  return transcript.findLastIndex((message) => message.role === 'user') + 1;
}

/**
 * Renders the transcript to Anthropic messages (after pairing every call with its result). With `thinking`, signed
 * thinking blocks and redacted ones go back unchanged and in place; reasoning without a signature (another provider's,
 * or cut off) never does.
 */
export function renderAnthropicMessages(
  transcript: readonly TranscriptMessage[],
  options: { thinking?: boolean } = {},
): AnthropicMessage[] {
  const paired = pairToolResults(transcript);
  const invalid = new Map<string, string>();
  const out: AnthropicMessage[] = [];
  // Only the current turn's thinking goes back: the API ignores earlier turns' (it strips them), so sending them
  // would only resend what a server planted there.
  const turnStart = currentTurnStart(paired);
  for (const [index, message] of paired.entries()) {
    let rendered: AnthropicMessage;
    if (message.role === 'user') {
      rendered = { role: 'user', content: toWireParts(message.content).map(block) };
    } else if (message.role === 'assistant') {
      const content: AnthropicBlock[] = [];
      for (const part of message.content) {
        if (part.type === 'text') {
          // The API rejects empty text blocks; a stopped turn can leave one.
          if (part.text.trim() !== '') content.push({ type: 'text', text: part.text });
          continue;
        }
        if (part.type === 'reasoning') {
          if (!options.thinking || index < turnStart) continue;
          if (part.redactedData !== undefined)
            content.push({ type: 'redacted_thinking', data: part.redactedData });
          else if (part.signature) {
            content.push({ type: 'thinking', thinking: part.text, signature: part.signature });
          }
          continue;
        }
        const args = wireArguments(part.args);
        if (!args.valid) invalid.set(part.id, part.args);
        content.push({ type: 'tool_use', id: wireId(part.id), name: part.name, input: args.object });
      }
      rendered = { role: 'assistant', content };
    } else {
      rendered = { role: 'user', content: message.results.map((r) => toolResult(r, invalid.get(r.callId))) };
    }
    if (rendered.content.length === 0) continue;
    const last = out[out.length - 1];
    if (last?.role === rendered.role) last.content.push(...rendered.content);
    else out.push(rendered);
  }
  for (const message of out) {
    // Results must open the user turn that answers the calls, before any text merged into it.
    if (message.role === 'user') message.content = orderResultsFirst(message.content);
  }
  return out;
}

function toolResult(result: ToolResultPart, invalidArgs: string | undefined): AnthropicBlock {
  const parts: WirePart[] = toWireParts(result.content);
  if (invalidArgs !== undefined) parts.unshift({ type: 'text', text: invalidArgumentsNote(invalidArgs) });
  if (parts.length === 0) parts.push({ type: 'text', text: '(no output)' });
  const rendered: AnthropicBlock = {
    type: 'tool_result',
    tool_use_id: wireId(result.callId),
    content: parts.map(block),
  };
  if (result.isError) rendered.is_error = true;
  return rendered;
}

function block(part: WirePart): TextBlock | ImageBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  return { type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data } };
}

function orderResultsFirst(content: AnthropicBlock[]): AnthropicBlock[] {
  return [
    ...content.filter((b) => b.type === 'tool_result'),
    ...content.filter((b) => b.type !== 'tool_result'),
  ];
}

// Ids from another provider (a chat can switch) may hold characters Anthropic's id pattern refuses.
function wireId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'toolu_missing';
}
