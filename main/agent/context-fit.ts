// A chat longer than the model's context (docs/agent-loop.md, "A chat longer than the model's context"). Tool outputs
// are what grows a chat most (each up to 1 MiB; a hostile server or page can send that every call), and the app
// cannot know a model's context size beforehand: servers do not say it, and a proxy may name any model. So a request
// the server refuses as too long for the context goes again at once with the older tool outputs left out, newest kept
// first, at half the tool-output characters each time, and the size that fitted is kept for that model while the app
// runs, so the next requests fit at once. The chat's history keeps every output whole: only requests leave them out.
import type { ContentPart } from '../../tools/sdk/types';
import type { TranscriptMessage } from '../store/transcript';
import type { ModelRequest, Provider, StreamEvent } from './providers/provider';
import { ProviderError } from './providers/provider';

/** How often one request is made smaller before the refusal stands. */
export const MAX_FITS = 6;
/** An output cut to fit keeps at least this many characters of its head; with less room it is left out whole. */
const MIN_KEPT_CHARS = 2000;

// How servers say a request is longer than the model's context: OpenAI and compatibles (vLLM, DeepSeek, OpenRouter,
// LM Studio) `context_length_exceeded` / "maximum context length is N tokens", Anthropic "prompt is too long".
const OVERFLOW =
  /context[_ ]length|maximum context|context window|prompt is too long|too many (input )?tokens|input is too long|request too large for model/i;

/** Whether `error` is the server's refusal of a request too long for the model's context. */
export function isContextOverflow(error: unknown): boolean {
  return (
    error instanceof ProviderError &&
    (error.kind === 'bad_request' || error.kind === 'too_large' || error.status === 413) &&
    OVERFLOW.test(error.message)
  );
}

function textChars(content: readonly ContentPart[]): number {
  return content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
}

/** The characters of text in the tool outputs of `messages`. */
export function toolOutputChars(messages: readonly TranscriptMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    if (message.role === 'tool_results')
      for (const result of message.results) chars += textChars(result.content);
  }
  return chars;
}

/**
 * `messages` with at most `budget` characters of tool-output text, the newest outputs kept first: an output that
 * does not fit in what is left keeps its head (at least MIN_KEPT_CHARS) with a line saying how much was cut, or is
 * replaced by a line saying it was left out. Images are the image budget's (image-budget.ts).
 */
export function withinToolOutputBudget(
  messages: readonly TranscriptMessage[],
  budget: number,
): TranscriptMessage[] {
  let left = budget;
  const out = [...messages];
  for (let m = out.length - 1; m >= 0; m--) {
    const message = out[m] as TranscriptMessage;
    if (message.role !== 'tool_results') continue;
    const results = [...message.results];
    for (let r = results.length - 1; r >= 0; r--) {
      const result = results[r]!;
      const chars = textChars(result.content);
      if (chars <= left) {
        left -= chars;
        continue;
      }
      const kept = left >= MIN_KEPT_CHARS ? left : 0;
      left -= kept;
      results[r] = { ...result, content: fitted(result.content, kept, chars) };
    }
    out[m] = { role: 'tool_results', results };
  }
  return out;
}

// The content with its text cut to `kept` characters in all (0: left out), images as they were.
function fitted(content: readonly ContentPart[], kept: number, chars: number): ContentPart[] {
  const note =
    kept === 0
      ? `[this earlier output (${chars} characters) was left out of this request to fit the model's context; call the tool again, asking for less, if you need it]`
      : `[${chars - kept} more characters of this output were left out of this request to fit the model's context]`;
  let room = kept;
  const parts: ContentPart[] = [];
  for (const part of content) {
    if (part.type !== 'text') {
      parts.push(part);
      continue;
    }
    if (room <= 0) continue;
    parts.push({ type: 'text', text: part.text.slice(0, room) });
    room -= part.text.length;
  }
  parts.push({ type: 'text', text: note });
  return parts;
}

// The tool-output size that fitted, per provider and model, while the app runs.
const fittedBudgets = new WeakMap<Provider, Map<string, number>>();

/**
 * Streams `request` on `provider`; a refusal as too long for the context, before any event, sends it again with
 * less of the older tool outputs (a `feature_dropped` event tells the person once per request). The refusal stands,
 * in words saying so, when there is nothing left to leave out or after MAX_FITS tries.
 */
export async function* streamFitted(provider: Provider, request: ModelRequest): AsyncGenerator<StreamEvent> {
  let budgets = fittedBudgets.get(provider);
  if (!budgets) fittedBudgets.set(provider, (budgets = new Map()));
  let budget = budgets.get(request.model);
  let told = false;
  for (let fits = 0; ; fits++) {
    const messages =
      budget === undefined ? request.messages : withinToolOutputBudget(request.messages, budget);
    let streamed = false;
    try {
      for await (const event of provider.stream({ ...request, messages })) {
        streamed = true;
        yield event;
      }
      return;
    } catch (error) {
      if (streamed || !isContextOverflow(error)) throw error;
      const chars = toolOutputChars(messages);
      if (chars === 0 || fits >= MAX_FITS) {
        throw new ProviderError(
          'bad_request',
          `${(error as Error).message} — this chat is longer than the model's context even with ${chars === 0 ? 'every' : 'most'} older tool output left out: start a new chat, or pick a model with a larger context`,
          (error as ProviderError).status,
          { cause: error },
        );
      }
      budget = Math.floor(chars / 2);
      budgets.set(request.model, budget);
      if (!told) {
        told = true;
        yield {
          type: 'feature_dropped',
          feature: 'older tool outputs',
          message: `The model refused the request as longer than its context (${(error as Error).message}); older tool outputs are left out of requests from now on (the chat keeps them).`,
        };
      }
    }
  }
}
