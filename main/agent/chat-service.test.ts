import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture, writeScriptTool } from './testing/chat-fixture';
import type { TurnEvent } from './turn-events';

const wordCount = {
  name: 'word_count',
  description: 'Count the words of a text.\nUse when you need a word count; read_file for the text itself.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text, e.g. "a b".' } },
    required: ['text'],
  },
  timeout: 30,
};
const wordCountJs =
  'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{console.log(JSON.parse(s).text.split(/\\s+/).filter(Boolean).length)})';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('ChatService turns', () => {
  it('streams, runs tool calls through the executor, and answers; the request carries only the fixed set plus loaded schemas', async () => {
    fixture = await chatFixture({ prepare: (home) => writeScriptTool(home, 'wc', wordCount, wordCountJs) });
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    server.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'c1', name: 'find_tools', args: '{"query":"select:script_word_count"}' } },
        ]),
      },
      {
        events: openAiEvents([
          { text: 'Counting.' },
          { toolCall: { id: 'c2', name: 'script_word_count', args: '{"text":"one two three"}' } },
          {
            toolCall: { id: 'c3', name: 'write_todo', args: '{"items":[{"text":"count","status":"done"}]}' },
          },
        ]),
      },
      { events: openAiEvents([{ text: 'There are 3 words.' }]) },
    );
    const events: TurnEvent[] = [];
    service.on((e) => events.push(e));
    const result = await service.send(chat.id, 'How many words in "one two three"?');
    expect(result).toMatchObject({ status: 'completed', text: 'There are 3 words.', rounds: 3 });
    const [first, second, third] = server.requests;
    const names = (req: typeof first) =>
      (req?.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
    expect(names(first)).toEqual([
      'find_tools',
      'run_tool',
      'reasoning_guide',
      'write_todo',
      'chat_history',
      'ask_user',
      'write_result',
    ]);
    const runTool = first?.body.tools.find(
      (t: { function: { name: string } }) => t.function.name === 'run_tool',
    );
    expect(runTool.function.description).toContain('script_word_count');
    expect(names(second)).toContain('script_word_count');
    const toolMessages = third?.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(toolMessages.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(['c1', 'c2', 'c3']);
    expect(toolMessages[1].content).toContain('3');
    expect(fixture.store.todos.get(chat.id)).toEqual([{ text: 'count', status: 'done' }]);
    expect(events.map((e) => e.type)).toContain('todo.updated');
    expect(events.at(-1)).toMatchObject({ type: 'turn.finished', status: 'completed' });
    // Every call is in the store with its outcome.
    expect(fixture.store.toolCalls.list(chat.id).map((c) => [c.tool, c.outcome])).toEqual([
      ['find_tools', 'ok'],
      ['script_word_count', 'ok'],
      ['write_todo', 'ok'],
    ]);
    expect(fixture.store.schemas.get(chat.id)).toEqual(['script_word_count']);
  });

  it('asks for a summary without tools when the round limit is reached', async () => {
    fixture = await chatFixture({ maxRounds: 2 });
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const todo = (id: string) => ({
      events: openAiEvents([{ toolCall: { id, name: 'write_todo', args: '{"items":[]}' } }]),
    });
    server.enqueue(todo('r1'), todo('r2'), { events: openAiEvents([{ text: 'Summary: nothing left.' }]) });
    const result = await service.send(chat.id, 'loop');
    expect(result).toMatchObject({ status: 'completed', text: 'Summary: nothing left.', rounds: 3 });
    expect(server.requests[2]?.body.tools).toBeUndefined();
    expect(JSON.stringify(server.requests[2]?.body.messages.at(-1))).toContain('limit of 2 tool rounds');
  });

  it('stops mid-stream, keeps the partial text, and the next turn sends a valid transcript', async () => {
    fixture = await chatFixture();
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    server.enqueue({
      events: openAiEvents([{ text: 'Partial answer that goes on' }], { omitDone: true, omitFinish: true }),
      hang: true,
    });
    const controller = new AbortController();
    service.on((e) => {
      if (e.type === 'text.delta') controller.abort();
    });
    const result = await service.send(chat.id, 'write a long answer', controller.signal);
    expect(result.status).toBe('cancelled');
    const assistant = fixture.store.messages.list(chat.id).find((m) => m.message.role === 'assistant');
    expect(assistant?.status).toBe('cancelled');
    server.enqueue({ events: openAiEvents([{ text: 'ok' }]) });
    expect((await service.send(chat.id, 'again')).status).toBe('completed');
    const roles = server.requests.at(-1)?.body.messages.map((m: { role: string }) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('stops mid-tool: the script tree is killed, the call is marked cancelled, and the transcript answers it', async () => {
    const marker = path.join(fs.mkdtempSync('/tmp/agenvoy-marker-'), 'late');
    fixture = await chatFixture({
      prepare: (home) =>
        writeScriptTool(
          home,
          'slow',
          { ...wordCount, name: 'slow_job', parameters: { type: 'object', properties: {} } },
          `setTimeout(() => require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 3000);`,
        ),
    });
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    fixture.core.schemas.load(chat.id, ['script_slow_job']);
    fixture.store.schemas.set(chat.id, ['script_slow_job']);
    server.enqueue({
      events: openAiEvents([{ toolCall: { id: 's1', name: 'script_slow_job', args: '{}' } }]),
    });
    const controller = new AbortController();
    service.on((e) => {
      if (e.type === 'call.started') setTimeout(() => controller.abort(), 100);
    });
    const result = await service.send(chat.id, 'run it', controller.signal);
    expect(result.status).toBe('cancelled');
    expect(fixture.store.toolCalls.get(chat.id, 's1')).toMatchObject({ outcome: 'cancelled' });
    await new Promise((r) => setTimeout(r, 3500));
    expect(fs.existsSync(marker)).toBe(false);
    server.enqueue({ events: openAiEvents([{ text: 'fine' }]) });
    await service.send(chat.id, 'and now?');
    const tool = server.requests.at(-1)?.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool).toMatchObject({ tool_call_id: 's1' });
    expect(tool.content).toMatch(/cancel/);
  }, 20_000);

  it('reports a cut stream as a failed turn and keeps the partial answer', async () => {
    fixture = await chatFixture();
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    server.enqueue({ events: openAiEvents([{ text: 'Half of the answer' }], { chunkSize: 4 }), cutAfter: 4 });
    const result = await service.send(chat.id, 'hi');
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/cut/);
    const assistant = fixture.store.messages.list(chat.id).find((m) => m.message.role === 'assistant');
    expect(assistant?.status).toBe('cut');
    expect(JSON.stringify(assistant?.message)).toContain('Half');
  });

  it('asks for a missing API key through the healer, then sends it; a rejected key is asked again', async () => {
    let stored: string | undefined;
    const prompts: string[] = [];
    fixture = await chatFixture({
      apiKeyName: 'TEST_API_KEY',
      getSecret: async (key) => (key === 'TEST_API_KEY' ? stored : undefined),
      healer: {
        async heal(request) {
          prompts.push(`${request.key}:${request.reason}`);
          stored = prompts.length === 1 ? 'wrong-key-1' : 'right-key-2';
          return true;
        },
      },
    });
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    server.enqueue(
      { status: 401, body: { error: { message: 'bad key' } } },
      { events: openAiEvents([{ text: 'hello' }]) },
    );
    const result = await service.send(chat.id, 'hi');
    expect(prompts).toEqual(['TEST_API_KEY:missing', 'TEST_API_KEY:rejected']);
    expect(result).toMatchObject({ status: 'completed', text: 'hello' });
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer right-key-2');
  });

  it('adds a note when a background task finishes; the model sees it at its next request', async () => {
    fixture = await chatFixture();
    const { server, service, core } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const task = core.tasks.start({
      tool: 'job',
      chatId: chat.id,
      summary: 'build',
      limitMs: 5000,
      run: async () => 'built fine',
    });
    await core.tasks.wait(task.id);
    server.enqueue(
      { events: openAiEvents([{ text: 'noted' }]) },
      { events: openAiEvents([{ text: 'again' }]) },
    );
    await service.send(chat.id, 'status?');
    expect(JSON.stringify(server.requests[0]?.body.messages)).toContain('built fine');
    await service.send(chat.id, 'and?');
    const notes = JSON.stringify(server.requests[1]?.body.messages).match(/built fine/g) ?? [];
    expect(notes).toHaveLength(1);
    expect(fixture.store.tasks.get(task.id)).toMatchObject({ status: 'succeeded' });
  });
});
