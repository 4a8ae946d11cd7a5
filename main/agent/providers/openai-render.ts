// The neutral transcript rendered as an OpenAI-compatible Chat Completions request body.
// Kept to the common subset (string content where possible) so local servers accept it too.
import type { ToolResultPart, TranscriptMessage } from '../../store/transcript';
import { pairToolResults } from './pair-results';
import type { ModelRequest } from './provider';
import type { WirePart } from './wire-content';
import { invalidArgumentsNote, toWireParts, wireArguments } from './wire-content';

/** A part of array-form user content. */
export type OpenAiContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** A tool call in an assistant message. */
export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One Chat Completions message, as this client sends them. */
export type OpenAiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAiContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: OpenAiToolCall[];
      /** The reasoning of a message that called tools, in the field the server sent it (DeepSeek requires it back). */
      reasoning_content?: string;
      reasoning?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** The body of POST /chat/completions. */
export interface OpenAiBody {
  model: string;
  messages: OpenAiMessage[];
  stream: true;
  stream_options: { include_usage: true };
  tools?: Array<{
    type: 'function';
    function: { name: string; description: string; parameters: Record<string, unknown> };
  }>;
  max_tokens?: number;
  max_completion_tokens?: number;
  /** The chat's stable key, so requests sharing a prefix reach the same cache (OpenAI; others may ignore it). */
  prompt_cache_key?: string;
  /** How much a reasoning model thinks (OpenAI, DeepSeek, OpenRouter, vLLM; others refuse or ignore it). */
  reasoning_effort?: 'low' | 'medium' | 'high';
}

/** Which field carries the output limit: OpenAI's own API wants max_completion_tokens, others max_tokens. */
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

/** Renders a request: system message, assistant tool_calls, one `tool` message per result, images as data URLs. */
export function renderOpenAiRequest(
  request: ModelRequest,
  maxTokensField: MaxTokensField = 'max_tokens',
): OpenAiBody {
  const messages: OpenAiMessage[] = [];
  if (request.system !== '') messages.push({ role: 'system', content: request.system });
  messages.push(...renderOpenAiMessages(request.messages));
  const body: OpenAiBody = {
    model: request.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.cacheKey) body.prompt_cache_key = request.cacheKey;
  if (request.reasoning) body.reasoning_effort = request.reasoning.level;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  if (request.maxTokens !== undefined) body[maxTokensField] = request.maxTokens;
  return body;
}

/** Renders the transcript (after pairing every call with its result) without the system message. */
export function renderOpenAiMessages(transcript: readonly TranscriptMessage[]): OpenAiMessage[] {
  const invalid = new Map<string, string>();
  const out: OpenAiMessage[] = [];
  const push = (message: OpenAiMessage) => {
    const last = out[out.length - 1];
    // Several chat templates (Mistral, Llama on vLLM) insist on alternating turns: merge adjacent users.
    if (message.role === 'user' && last?.role === 'user')
      last.content = mergeContent(last.content, message.content);
    else out.push(message);
  };
  for (const message of pairToolResults(transcript)) {
    if (message.role === 'user') {
      const content = userContent(toWireParts(message.content));
      if (content.length > 0) push({ role: 'user', content });
    } else if (message.role === 'assistant') {
      const text = message.content
        .flatMap((p) => (p.type === 'text' && p.text !== '' ? [p.text] : []))
        .join('\n\n');
      const calls: OpenAiToolCall[] = [];
      for (const part of message.content) {
        if (part.type !== 'tool_call') continue;
        const args = wireArguments(part.args);
        if (!args.valid) invalid.set(part.id, part.args);
        calls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: args.text } });
      }
      if (text === '' && calls.length === 0) continue;
      const rendered: OpenAiMessage = { role: 'assistant', content: text === '' ? null : text };
      if (calls.length > 0) rendered.tool_calls = calls;
      // Reasoning goes back in the field an OpenAI-compatible server sent it in (DeepSeek's thinking mode wants every
      // message's back once tools are declared, and ignores it otherwise); another wire's reasoning (Anthropic
      // thinking, after a switch of provider) has no such field and is never sent.
      for (const part of message.content) {
        if (part.type !== 'reasoning' || !part.text || !part.field) continue;
        const field = part.field === 'reasoning' ? 'reasoning' : 'reasoning_content';
        rendered[field] = (rendered[field] ?? '') + part.text;
      }
      push(rendered);
    } else {
      // A tool message carries text only; images follow in one user message after all the results,
      // since nothing may come between the calls and their tool messages.
      const images: OpenAiContentPart[] = [];
      for (const result of message.results) {
        const { text, imageParts } = toolMessage(result, invalid.get(result.callId));
        push({ role: 'tool', tool_call_id: result.callId, content: text });
        images.push(...imageParts);
      }
      if (images.length > 0) push({ role: 'user', content: images });
    }
  }
  return out;
}

type WireImage = Extract<WirePart, { type: 'image' }>;

function toolMessage(result: ToolResultPart, invalidArgs: string | undefined) {
  const texts: string[] = [];
  const images: WireImage[] = [];
  if (invalidArgs !== undefined) texts.push(invalidArgumentsNote(invalidArgs));
  for (const part of toWireParts(result.content)) {
    if (part.type === 'text') texts.push(part.text);
    else images.push(part);
  }
  images.forEach((image, i) => {
    texts.push(
      `[image ${i + 1} of ${images.length} (${image.mimeType}) is attached in the next user message]`,
    );
  });
  const imageParts: OpenAiContentPart[] =
    images.length === 0
      ? []
      : [
          { type: 'text', text: `Images returned by ${result.name} (call ${result.callId}):` },
          ...images.map(imageUrl),
        ];
  let text = texts.join('\n') || '(no output)';
  // The format has no error flag; the text has to say it.
  if (result.isError && !/^error\b/i.test(text)) text = `Error: ${text}`;
  return { text, imageParts };
}

function userContent(parts: WirePart[]): string | OpenAiContentPart[] {
  if (parts.every((part) => part.type === 'text')) {
    // Plain string content is what every compatible server understands.
    return parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n');
  }
  return parts.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : imageUrl(part)));
}

function mergeContent(
  a: string | OpenAiContentPart[],
  b: string | OpenAiContentPart[],
): string | OpenAiContentPart[] {
  if (typeof a === 'string' && typeof b === 'string') return `${a}\n\n${b}`;
  return [...asParts(a), ...asParts(b)];
}

function asParts(content: string | OpenAiContentPart[]): OpenAiContentPart[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function imageUrl(image: WireImage): OpenAiContentPart {
  return { type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}
