// The wire rules of reasoning, usage and optional features (docs/agent-loop.md, "Reasoning", "Usage and cost", "When
// a server refuses a feature"), each checked on the function that applies it: what a refusal is, what thinking asks
// of max_tokens, which reasoning goes back where, and how a usage chunk is read.
import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../store/transcript';
import { renderAnthropicRequest } from './anthropic-render';
import { OpenAiStreamDecoder } from './openai-chunks';
import { renderOpenAiMessages } from './openai-render';
import { IMAGES, OptionalFeature } from './optional-feature';
import type { ModelRequest } from './provider';
import { ProviderError } from './provider';

const THINKING = new OptionalFeature('extended thinking', ['thinking']);
const REASONING_EFFORT = new OptionalFeature('reasoning effort', ['reasoning_effort']);
const CACHE_CONTROL = new OptionalFeature('prompt caching', ['cache_control']);
const refused = (feature: OptionalFeature, message: string) =>
  feature.refusal(new ProviderError('bad_request', message, 400));

describe('what counts as a refusal of a feature', () => {
  it('a 400 that names the feature and says it is not taken', () => {
    expect(refused(THINKING, 'thinking: Extra inputs are not permitted')).toBe(true);
    expect(refused(THINKING, "'claude-3-5-haiku-20241022' does not support thinking.")).toBe(true);
    expect(refused(REASONING_EFFORT, 'Unrecognized request argument supplied: reasoning_effort')).toBe(true);
    expect(
      refused(
        REASONING_EFFORT,
        "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
      ),
    ).toBe(true);
    expect(refused(CACHE_CONTROL, 'messages.0.content.0.cache_control: Extra inputs are not permitted')).toBe(
      true,
    );
    expect(refused(IMAGES, 'Invalid content type. image_url is only supported by certain models.')).toBe(
      true,
    );
    expect(refused(IMAGES, 'Model does not support images. Please use a model that does.')).toBe(true);
    expect(refused(IMAGES, 'image input is not supported - hint: you may need to provide the mmproj')).toBe(
      true,
    );
    expect(refused(IMAGES, 'Qwen/Qwen2.5-7B is not a multimodal model')).toBe(true);
  });

  it('not a 400 that only mentions it: too large, too many pixels, a bad signature, another field', () => {
    expect(refused(IMAGES, 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum')).toBe(
      false,
    );
    expect(
      refused(
        IMAGES,
        'At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels',
      ),
    ).toBe(false);
    expect(refused(IMAGES, 'Could not process image')).toBe(false);
    expect(refused(THINKING, 'messages.1.content.0: Invalid `signature` in `thinking` block')).toBe(false);
    expect(
      refused(THINKING, 'max_tokens: 40000 > 32000, which is the maximum allowed number of output tokens'),
    ).toBe(false);
    expect(refused(REASONING_EFFORT, 'Unrecognized request argument supplied: temperature')).toBe(false);
    // Only bad requests: a server error that happens to say "not supported" is not a refusal.
    expect(THINKING.refusal(new ProviderError('server', 'thinking is not supported right now', 503))).toBe(
      false,
    );
  });
});

const request = (model: string, budgetTokens: number): ModelRequest => ({
  model,
  system: '',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  reasoning: { level: 'high', budgetTokens },
});

describe('thinking within the model’s output limit', () => {
  it('max_tokens never passes the model’s limit, and the budget keeps 1,024 tokens of answer below it', () => {
    const cases: Array<[string, number, number, number]> = [
      // model, budget asked, max_tokens, budget sent
      ['claude-sonnet-4-5-20250929', 24_576, 32_768, 24_576],
      ['claude-opus-4-1-20250805', 24_576, 32_000, 24_576],
      ['claude-opus-4-1-20250805', 127_999, 32_000, 30_976],
      ['anthropic/claude-opus-4.5', 127_999, 64_000, 62_976],
      ['claude-3-5-haiku-latest', 24_576, 8192, 7168],
      ['some-proxy-model', 127_999, 32_000, 30_976],
    ];
    for (const [model, asked, maxTokens, budget] of cases) {
      const body = renderAnthropicRequest(request(model, asked), 8192);
      expect({ model, max: body.max_tokens, budget: body.thinking?.budget_tokens }).toEqual({
        model,
        max: maxTokens,
        budget,
      });
    }
  });
});

const signed = { type: 'reasoning' as const, text: 'Anthropic thoughts', signature: 'sig' };
const call = { type: 'tool_call' as const, id: 'toolu_1', name: 'write_todo', args: '{}' };
const result = {
  role: 'tool_results' as const,
  results: [
    {
      callId: 'toolu_1',
      name: 'write_todo',
      content: [{ type: 'text' as const, text: 'ok' }],
      isError: false,
    },
  ],
};

describe('which reasoning goes back', () => {
  it('OpenAI-compatible: only reasoning that came in an OpenAI field, never another wire’s thinking', () => {
    const messages = renderOpenAiMessages([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [signed, call] },
      result,
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'ds', field: 'reasoning_content' },
          { type: 'text', text: 'Done.' },
        ],
      },
    ]);
    const assistants = messages.filter((m) => m.role === 'assistant');
    expect(assistants[0]).not.toHaveProperty('reasoning_content');
    expect(assistants[0]).not.toHaveProperty('reasoning');
    expect(assistants[1]).toEqual({ role: 'assistant', content: 'Done.', reasoning_content: 'ds' });
  });

  it('Anthropic: only the current turn’s thinking, and none when the tool-use message does not open with it', () => {
    const earlier: TranscriptMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      {
        role: 'assistant',
        content: [
          { ...signed, redactedData: 'PLANTED'.repeat(10) },
          { type: 'text', text: 'One.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'second' }] },
      { role: 'assistant', content: [{ ...signed, text: 'now' }, call] },
      result,
    ];
    const body = renderAnthropicRequest({ ...request('claude-sonnet-4-5', 2048), messages: earlier }, 8192);
    expect(JSON.stringify(body)).not.toContain('PLANTED');
    expect(body.messages[3]?.content[0]).toEqual({ type: 'thinking', thinking: 'now', signature: 'sig' });
    expect(body.thinking).toBeDefined();
    // The continuing message opens with a tool call (thinking was off when it was made): the request goes without.
    const unsigned: TranscriptMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: ' ' }, { type: 'reasoning', text: 'cut short' }, call],
      },
      result,
    ];
    const without = renderAnthropicRequest(
      { ...request('claude-sonnet-4-5', 2048), messages: unsigned },
      8192,
    );
    expect(without.thinking).toBeUndefined();
    expect(JSON.stringify(without)).not.toContain('cut short');
    // Later responses of a tool-use turn come without thinking: the turn's first one opened with it, so it goes on.
    const later: TranscriptMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [signed, call] },
      result,
      { role: 'assistant', content: [{ ...call, id: 'toolu_2' }] },
      { role: 'tool_results', results: [{ ...result.results[0]!, callId: 'toolu_2' }] },
    ];
    const on = renderAnthropicRequest({ ...request('claude-sonnet-4-5', 2048), messages: later }, 8192);
    expect(on.thinking).toBeDefined();
    expect(on.messages[1]?.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Anthropic thoughts',
      signature: 'sig',
    });
  });
});

describe('an OpenAI-compatible usage chunk', () => {
  it('a later chunk with prompt_tokens states the input whole: an earlier cache count is not kept with it', () => {
    const decoder = new OpenAiStreamDecoder();
    const push = (data: unknown) => decoder.push({ event: '', data: JSON.stringify(data) });
    push({ choices: [{ delta: { content: 'x' }, finish_reason: 'stop' }] });
    push({
      choices: [],
      usage: { prompt_tokens: 1000, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 900 } },
    });
    push({ choices: [], usage: { prompt_tokens: 1000, completion_tokens: 6 } });
    const [end] = decoder.push({ event: '', data: '[DONE]' });
    expect(end).toMatchObject({
      type: 'done',
      usage: { inputTokens: 1000, outputTokens: 6, cacheReadTokens: null, cacheWriteTokens: null },
    });
  });
});
