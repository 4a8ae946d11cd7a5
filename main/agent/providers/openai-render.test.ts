import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../store/transcript';
import { OpenAiProvider } from './openai';
import { renderOpenAiMessages, renderOpenAiRequest } from './openai-render';
import { MISSING_RESULT_TEXT } from './pair-results';
import { collectStream } from './testing/collect-stream';
import { openAiEvents, startOpenAiTestServer } from './testing/openai-test-server';
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
      { type: 'tool_call', id: 'call_1', name: 'read_file', args: '{"path":"a.png"}' },
      { type: 'tool_call', id: 'call_2', name: 'read_file', args: '{"path":"missing.txt"}' },
    ],
  },
  {
    role: 'tool_results',
    results: [
      {
        callId: 'call_1',
        name: 'read_file',
        isError: false,
        content: [
          { type: 'text', text: 'a.png, 1 KB' },
          { type: 'image', mimeType: 'image/png', data: PNG },
        ],
      },
      {
        callId: 'call_2',
        name: 'read_file',
        isError: true,
        content: [{ type: 'text', text: '[not_found] no such file' }],
      },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'Background task t1 finished.' }] },
];

describe('OpenAI rendering', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startOpenAiTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('sends assistant tool_calls, one tool message per result, and tool images in a following user message', async () => {
    server.enqueue({ events: openAiEvents([{ text: 'done' }]) });
    const provider = new OpenAiProvider({ baseUrl: server.baseUrl, apiKey: null });
    await collectStream(provider.stream({ model: 'm', system: 'sys', messages: transcript, tools: [] }));
    const body = server.requests[0]?.body;
    expect(body.tools).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these files?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
      {
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.png"}' } },
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"missing.txt"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: 'a.png, 1 KB\n[image 1 of 1 (image/png) is attached in the next user message]',
      },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: [not_found] no such file' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by read_file (call call_1):' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'text', text: 'Background task t1 finished.' },
        ],
      },
    ]);
  });

  it('sends malformed arguments back as "{}" and shows the raw text in that call’s result', () => {
    const messages = renderOpenAiMessages([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_call',
            id: 'call_x',
            name: 'write_file',
            args: '{"path": "a.txt", "text": "unterminated',
          },
        ],
      },
      {
        role: 'tool_results',
        results: [
          {
            callId: 'call_x',
            name: 'write_file',
            isError: true,
            content: [{ type: 'text', text: 'Error [invalid_arguments]: not valid JSON' }],
          },
        ],
      },
    ]);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'write_file', arguments: '{}' } }],
    });
    expect(messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_x' });
    const content = messages[2]?.content as string;
    expect(content.startsWith('Error: (The arguments of this call were not a valid JSON object')).toBe(true);
    expect(content).toContain('As sent: {"path": "a.txt", "text": "unterminated');
  });

  it('answers unanswered calls, keeps results right after their calls, merges adjacent user messages as strings', () => {
    const messages = renderOpenAiMessages([
      { role: 'user', content: [{ type: 'text', text: 'one' }] },
      { role: 'user', content: [{ type: 'text', text: 'two' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_call', id: 'c1', name: 'a', args: '{}' },
          { type: 'tool_call', id: 'c2', name: 'b', args: '' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'note' }] },
      { role: 'tool_results', results: [{ callId: 'c2', name: 'b', isError: false, content: [] }] },
      { role: 'assistant', content: [{ type: 'text', text: '' }] },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'one\n\ntwo' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'a', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'b', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: `Error: ${MISSING_RESULT_TEXT}` },
      { role: 'tool', tool_call_id: 'c2', content: '(no output)' },
      { role: 'user', content: 'note' },
    ]);
  });

  it('uses max_completion_tokens on api.openai.com only', () => {
    const request = { model: 'm', system: '', messages: [], tools: [], maxTokens: 50 };
    expect(renderOpenAiRequest(request, 'max_completion_tokens')).toMatchObject({
      max_completion_tokens: 50,
    });
    expect(renderOpenAiRequest(request)).toMatchObject({ max_tokens: 50 });
  });
});
