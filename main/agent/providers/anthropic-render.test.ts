import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../store/transcript';
import { AnthropicProvider } from './anthropic';
import { renderAnthropicMessages, renderAnthropicRequest } from './anthropic-render';
import { MISSING_RESULT_TEXT } from './pair-results';
import { anthropicEvents, startAnthropicTestServer } from './testing/anthropic-test-server';
import { collectStream } from './testing/collect-stream';
import type { ScriptedServer } from './testing/scripted-server';

// A real 1×1 PNG: an image's bytes are checked before it is sent (wire-image.ts).
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

// A turn with two parallel calls: one fine with an image, one failed, then a note and the next prompt.
const transcript: TranscriptMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in these files?' },
      { type: 'image', mimeType: 'image/png', data: PNG },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_call', id: 'toolu_1', name: 'read_file', args: '{"path":"a.png"}' },
      { type: 'tool_call', id: 'toolu_2', name: 'read_file', args: '{"path":"missing.txt"}' },
    ],
  },
  {
    role: 'tool_results',
    results: [
      {
        callId: 'toolu_1',
        name: 'read_file',
        isError: false,
        content: [
          { type: 'text', text: 'a.png, 1 KB' },
          { type: 'image', mimeType: 'image/png', data: PNG },
        ],
      },
      {
        callId: 'toolu_2',
        name: 'read_file',
        isError: true,
        content: [{ type: 'text', text: '[not_found] no such file' }],
      },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'Background task t1 finished.' }] },
];

describe('Anthropic rendering', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startAnthropicTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends tool results as one user message of tool_result blocks, errors flagged, images inline, the next user text merged after them', async () => {
    server.enqueue({ events: anthropicEvents([{ text: 'done' }]) });
    const provider = new AnthropicProvider({ baseUrl: server.baseUrl, apiKey: 'k' });
    await collectStream(
      provider.stream({ model: 'm', system: 'sys', messages: transcript, tools: [], maxTokens: 100 }),
    );
    const body = server.requests[0]?.body;
    expect(body.max_tokens).toBe(100);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these files?' },
          // A cache breakpoint at the end of the previous round's input, and one at this request's end.
          {
            type: 'image',
            source: { type: 'base64', media_type: 'image/png', data: PNG },
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.png' } },
          { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'missing.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [
              { type: 'text', text: 'a.png, 1 KB' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            ],
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: [{ type: 'text', text: '[not_found] no such file' }],
            is_error: true,
          },
          { type: 'text', text: 'Background task t1 finished.', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
    // The system prompt carries the prefix's breakpoint (tools + system).
    expect(body.system).toEqual([{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    // The summary call offers no tools, yet the history holds tool blocks: the used ones are declared and forbidden.
    expect(body.tools).toEqual([
      { name: 'read_file', description: 'Not available in this request.', input_schema: { type: 'object' } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'none' });
  });

  it('sends malformed arguments back as {} and shows the raw text in that call’s result', () => {
    const messages = renderAnthropicMessages([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_call',
            id: 'toolu_x',
            name: 'write_file',
            args: '{"path": "a.txt", "text": "unterminated',
          },
        ],
      },
      {
        role: 'tool_results',
        results: [
          {
            callId: 'toolu_x',
            name: 'write_file',
            isError: true,
            content: [{ type: 'text', text: '[invalid_arguments] not valid JSON' }],
          },
        ],
      },
    ]);
    expect(messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'toolu_x', name: 'write_file', input: {} },
    ]);
    const result = messages[2]?.content[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_x', is_error: true });
    const texts =
      result?.type === 'tool_result' ? result.content.map((b) => (b.type === 'text' ? b.text : '')) : [];
    expect(texts[0]).toContain('As sent: {"path": "a.txt", "text": "unterminated');
    expect(texts[1]).toBe('[invalid_arguments] not valid JSON');
  });

  it('answers an unanswered call, drops stray results and empty assistant text, describes unsupported images and resources', () => {
    const messages = renderAnthropicMessages([
      { role: 'tool_results', results: [{ callId: 'ghost', name: 'x', isError: false, content: [] }] },
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '' },
          { type: 'tool_call', id: 'call.1/x', name: 'shot', args: '' },
          { type: 'tool_call', id: 'toolu_b', name: 'fetch', args: '{}' },
        ],
      },
      // A note filed between the calls and their results: the results must still come first.
      { role: 'user', content: [{ type: 'text', text: 'note' }] },
      {
        role: 'tool_results',
        results: [
          {
            callId: 'call.1/x',
            name: 'shot',
            isError: false,
            content: [
              { type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' },
              { type: 'resource', uri: 'file:///a.txt', text: 'hello' },
              { type: 'resource', uri: 'file:///b.bin', mimeType: 'application/zip', blob: 'UEs=' },
            ],
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
    ]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'call_1_x', name: 'shot', input: {} },
      { type: 'tool_use', id: 'toolu_b', name: 'fetch', input: {} },
    ]);
    expect(messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'call_1_x',
        content: [
          { type: 'text', text: expect.stringContaining('image of type image/svg+xml not shown') },
          { type: 'text', text: '[resource file:///a.txt]\nhello' },
          { type: 'text', text: '[resource file:///b.bin (application/zip): binary content not shown]' },
        ],
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_b',
        content: [{ type: 'text', text: MISSING_RESULT_TEXT }],
        is_error: true,
      },
      { type: 'text', text: 'note' },
      { type: 'text', text: 'again' },
    ]);
  });

  it('omits system and tools when there are none to send', () => {
    const body = renderAnthropicRequest(
      {
        model: 'm',
        system: '',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        tools: [],
      },
      512,
    );
    expect(body).toEqual({
      model: 'm',
      max_tokens: 512,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
  });
});
