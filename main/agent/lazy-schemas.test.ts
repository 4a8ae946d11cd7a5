// Lazy schemas in a real chat (docs/tools.md, "Tool discovery"): a call to a tool the chat has not loaded runs in
// the same round when its arguments fit the schema; otherwise it is answered with the schema and not run.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../core/gate-port';
import { policyGate } from '../core/gate-port';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { RecordedRequest } from './providers/testing/scripted-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture, writeScriptTool } from './testing/chat-fixture';

const wordCount = {
  name: 'word_count',
  description: 'Count the words of a text.\nUse when you need a word count; read_file for the text itself.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text, e.g. "a b".' } },
    required: ['text'],
    additionalProperties: false,
  },
  timeout: 30,
};
// Each run leaves a line in the workspace (its working folder), so a test can tell whether the handler ran.
const wordCountJs =
  'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{require("fs").appendFileSync("runs.log","ran\\n");' +
  'console.log(JSON.parse(s).text.split(/\\s+/).filter(Boolean).length)})';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function wordCountChat(options: Parameters<typeof chatFixture>[0] = {}) {
  fixture = await chatFixture({
    ...options,
    prepare: (home) => writeScriptTool(home, 'wc', wordCount, wordCountJs),
  });
  return { fixture, chat: fixture.service.createChat({ workspace: fixture.workspace }) };
}

const runs = (f: ChatFixture) => {
  const log = path.join(f.workspace, 'runs.log');
  return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
};
const toolMessages = (
  request: RecordedRequest | undefined,
): Array<{ tool_call_id: string; content: string }> =>
  (request?.body.messages ?? []).filter((m: { role: string }) => m.role === 'tool');
const declared = (request: RecordedRequest | undefined): string[] =>
  (request?.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);

describe('calls to tools the chat has not loaded', () => {
  it('runs a valid call in the same round: one request for the call, one for the answer', async () => {
    const { fixture: f, chat } = await wordCountChat();
    f.server.enqueue(
      {
        events: openAiEvents([{ toolCall: { id: 'a', name: 'script_word_count', args: '{"text":"x y"}' } }]),
      },
      { events: openAiEvents([{ text: 'two' }]) },
    );
    const result = await f.service.send(chat.id, 'count');
    expect(result).toMatchObject({ status: 'completed', text: 'two', rounds: 2 });
    // Two requests, where refusing the first call cost a third.
    expect(f.server.requests).toHaveLength(2);
    expect(declared(f.server.requests[0])).not.toContain('script_word_count');
    expect(toolMessages(f.server.requests[1])).toEqual([{ role: 'tool', tool_call_id: 'a', content: '2' }]);
    expect(runs(f)).toBe(1);
    expect(f.store.toolCalls.list(chat.id).map((c) => [c.callId, c.outcome, c.code])).toEqual([
      ['a', 'ok', null],
    ]);
    // Loaded for the rest of the chat: the next request declares it, and it is stored with the chat.
    expect(declared(f.server.requests[1])).toContain('script_word_count');
    expect(f.store.schemas.get(chat.id)).toEqual(['script_word_count']);
  });

  it('runs a valid call through run_tool in the same round, exactly as a direct one', async () => {
    const { fixture: f, chat } = await wordCountChat();
    const args = JSON.stringify({ name: 'script_word_count', args: { text: 'one two three' } });
    f.server.enqueue(
      { events: openAiEvents([{ toolCall: { id: 'r', name: 'run_tool', args } }]) },
      { events: openAiEvents([{ text: 'three' }]) },
    );
    await f.service.send(chat.id, 'count');
    expect(f.server.requests).toHaveLength(2);
    expect(toolMessages(f.server.requests[1])[0]?.content).toBe('3');
    expect(runs(f)).toBe(1);
    expect(f.store.toolCalls.get(chat.id, 'r')).toMatchObject({ tool: 'script_word_count', outcome: 'ok' });
    expect(f.store.schemas.get(chat.id)).toEqual(['script_word_count']);
  });

  it('does not run a call whose arguments do not fit: the answer carries the schema, the retry runs', async () => {
    const { fixture: f, chat } = await wordCountChat();
    f.server.enqueue(
      {
        events: openAiEvents([{ toolCall: { id: 'a', name: 'script_word_count', args: '{"words":"x y"}' } }]),
      },
      {
        events: openAiEvents([{ toolCall: { id: 'b', name: 'script_word_count', args: '{"text":"x y"}' } }]),
      },
      { events: openAiEvents([{ text: 'two' }]) },
    );
    await f.service.send(chat.id, 'count');
    expect(f.server.requests).toHaveLength(3);
    const [answer] = toolMessages(f.server.requests[1]);
    expect(answer?.tool_call_id).toBe('a');
    expect(answer?.content).toContain('script_word_count was not run');
    expect(answer?.content).toContain('"required":["text"]');
    expect(declared(f.server.requests[1])).toContain('script_word_count');
    // The handler ran once: for the retry, never for the call that did not fit.
    expect(runs(f)).toBe(1);
    expect(f.store.toolCalls.list(chat.id).map((c) => [c.callId, c.outcome, c.code])).toEqual([
      ['a', 'error', 'not_loaded'],
      ['b', 'ok', null],
    ]);
    // Its card shows the arguments the model sent, not an empty object.
    expect(JSON.parse(f.store.toolCalls.get(chat.id, 'a')?.args ?? '')).toEqual({ words: 'x y' });
  });

  it('still asks the gate for a tool that is not read-only: denied, it does not run', async () => {
    const asked: ApprovalRequest[] = [];
    const { fixture: f, chat } = await wordCountChat({
      gate: policyGate((request) => {
        asked.push(request);
        return { kind: 'deny', message: 'denied by the user', reason: 'not now' };
      }),
    });
    f.server.enqueue(
      {
        events: openAiEvents([{ toolCall: { id: 'a', name: 'script_word_count', args: '{"text":"x y"}' } }]),
      },
      { events: openAiEvents([{ text: 'ok, not counting' }]) },
    );
    await f.service.send(chat.id, 'count');
    expect(asked.map((r) => [r.tool, r.args])).toEqual([['script_word_count', { text: 'x y' }]]);
    expect(runs(f)).toBe(0);
    expect(f.server.requests).toHaveLength(2);
    expect(f.store.toolCalls.get(chat.id, 'a')).toMatchObject({ outcome: 'denied' });
    expect(toolMessages(f.server.requests[1])[0]?.content).toContain('denied');
  });
});
