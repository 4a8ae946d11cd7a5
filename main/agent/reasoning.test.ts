// Reasoning (docs/agent-loop.md, "Reasoning"), through the real chat stack against local servers speaking each wire:
// Anthropic thinking blocks go back unchanged and in place during tool use; OpenAI-compatible reasoning_content is
// shown live, sent back only with the tool calls it led to, and never reaches a tool's arguments; a server that
// refuses a feature gets the request again without it and the person is told once.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnEvent } from './turn-events';
import { anthropicEvents } from './providers/testing/anthropic-test-server';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';
import { runCli } from '../cli/testing/cli-harness';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const TODO_ARGS = JSON.stringify({ items: [{ text: 'check the figures', status: 'in_progress' }] });
const THINKING = 'The person wants a checklist. I will call write_todo with one item.';

function record(f: ChatFixture): TurnEvent[] {
  const events: TurnEvent[] = [];
  f.service.on((event) => events.push(event));
  return events;
}

const reasoningText = (events: TurnEvent[]) =>
  events.flatMap((e) => (e.type === 'reasoning.delta' ? [e.delta] : [])).join('');

const posts = (f: ChatFixture) => f.server.requests.filter((r) => r.method === 'POST');

describe('Anthropic extended thinking', () => {
  it('asks for the chat’s budget and sends signed and redacted thinking back unchanged, in place, during tool use', async () => {
    fixture = await chatFixture({ wire: 'anthropic' });
    const { server, service, store } = fixture;
    const events = record(fixture);
    const chat = service.createChat({ workspace: fixture.workspace });
    store.chats.setReasoning(chat.id, 'medium');
    server.enqueue(
      {
        events: anthropicEvents([
          { thinking: THINKING, signature: 'sig-EqQBCkgIARABGAIiQL' },
          { redactedThinking: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw' },
          { toolCall: { id: 'toolu_1', name: 'write_todo', args: TODO_ARGS } },
        ]),
      },
      { events: anthropicEvents([{ thinking: 'It worked.', signature: 'sig-2' }, { text: 'Done.' }]) },
    );
    const result = await service.send(chat.id, 'Make me a checklist.');
    expect(result).toMatchObject({ status: 'completed', text: 'Done.' });

    const [first, second] = posts(fixture);
    // medium: 8,192 tokens of thinking, on top of the answer's own room.
    expect(first?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(first?.body.max_tokens).toBe(8192 + 8192);
    expect(second?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    const assistant = second?.body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: THINKING, signature: 'sig-EqQBCkgIARABGAIiQL' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw' },
      { type: 'tool_use', id: 'toolu_1', name: 'write_todo', input: JSON.parse(TODO_ARGS) },
    ]);

    // Shown live, and kept in the transcript where it came.
    expect(reasoningText(events)).toBe(`${THINKING}It worked.`);
    const stored = store.messages.list(chat.id).filter((m) => m.message.role === 'assistant');
    expect(stored[0]?.message).toMatchObject({
      content: [
        { type: 'reasoning', text: THINKING, signature: 'sig-EqQBCkgIARABGAIiQL' },
        { type: 'reasoning', text: '', redactedData: expect.any(String) },
        { type: 'tool_call', name: 'write_todo', args: TODO_ARGS },
      ],
    });
    // The tool got exactly what the model called it with.
    expect(store.toolCalls.list(chat.id)[0]?.args).toBe(TODO_ARGS);
  });

  it('goes on without thinking when a secret had to be scrubbed out of signed thinking', async () => {
    fixture = await chatFixture({ wire: 'anthropic' });
    const { server, service, store, core } = fixture;
    core.redactor.add('DEPLOY_TOKEN', 'CANARY-7731-THINKING');
    const chat = service.createChat({ workspace: fixture.workspace });
    store.chats.setReasoning(chat.id, 'low');
    server.enqueue(
      {
        events: anthropicEvents([
          { thinking: 'The token is CANARY-7731-THINKING, I must not repeat it.', signature: 'sig-x' },
          { toolCall: { id: 'toolu_1', name: 'write_todo', args: TODO_ARGS } },
        ]),
      },
      { events: anthropicEvents([{ text: 'Done.' }]) },
    );
    await service.send(chat.id, 'Go.');
    const [first, second] = posts(fixture);
    expect(first?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    // The altered block cannot go back signed, and the API wants the tool-use turn to open with one: no thinking.
    expect(second?.body.thinking).toBeUndefined();
    expect(JSON.stringify(second?.body)).not.toContain('CANARY-7731-THINKING');
    expect(JSON.stringify(second?.body)).not.toContain('"thinking"');
    expectOnDiskOnlyRedacted(fixture.home, 'CANARY-7731-THINKING', '[redacted:DEPLOY_TOKEN]');
  });

  it('a secret a hostile server echoes into a signature or redacted data is never stored or sent back', async () => {
    fixture = await chatFixture({ wire: 'anthropic' });
    const { server, service, store, core } = fixture;
    core.redactor.add('DEPLOY_TOKEN', 'CANARY-5512-SIGNED');
    const chat = service.createChat({ workspace: fixture.workspace });
    store.chats.setReasoning(chat.id, 'low');
    server.enqueue(
      {
        events: anthropicEvents([
          { thinking: 'Plain thoughts.', signature: 'sig-CANARY-5512-SIGNED' },
          { redactedThinking: 'data-CANARY-5512-SIGNED' },
          { toolCall: { id: 'toolu_1', name: 'write_todo', args: TODO_ARGS } },
        ]),
      },
      { events: anthropicEvents([{ text: 'Done.' }]) },
    );
    await service.send(chat.id, 'Go.');
    const second = posts(fixture)[1];
    expect(JSON.stringify(second?.body)).not.toContain('CANARY-5512-SIGNED');
    expect(second?.body.thinking).toBeUndefined();
    expectOnDiskOnlyRedacted(fixture.home, 'CANARY-5512-SIGNED', 'Plain thoughts.');
  });

  it('a server that refuses thinking gets the request again without it, and the person is told once', async () => {
    fixture = await chatFixture({ wire: 'anthropic' });
    const { server, service, store } = fixture;
    const events = record(fixture);
    const chat = service.createChat({ workspace: fixture.workspace });
    store.chats.setReasoning(chat.id, 'high');
    server.enqueue(
      { status: 400, body: anthropicError('thinking: Extra inputs are not permitted') },
      { events: anthropicEvents([{ text: 'Hello.' }]) },
      { events: anthropicEvents([{ text: 'Again.' }]) },
    );
    expect(await service.send(chat.id, 'Hi')).toMatchObject({ status: 'completed', text: 'Hello.' });
    expect(await service.send(chat.id, 'And again')).toMatchObject({ status: 'completed', text: 'Again.' });
    const sent = posts(fixture);
    expect(sent).toHaveLength(3);
    expect(sent[0]?.body.thinking).toBeDefined();
    expect(sent[1]?.body.thinking).toBeUndefined();
    // Remembered for that server and model: the next turn does not ask again.
    expect(sent[2]?.body.thinking).toBeUndefined();
    const notices = events.filter((e) => e.type === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      level: 'warn',
      message: expect.stringMatching(/refused extended thinking/),
    });
  });
});

describe('OpenAI-compatible reasoning', () => {
  it('asks reasoning_effort, shows reasoning_content live, keeps it out of tool arguments and sends it back with its calls', async () => {
    fixture = await chatFixture();
    const { server, service, store } = fixture;
    const events = record(fixture);
    const chat = service.createChat({ workspace: fixture.workspace });
    store.chats.setReasoning(chat.id, 'low');
    const plan = 'I need a checklist {"items": "not these"} so I call write_todo.';
    server.enqueue(
      {
        events: openAiEvents([
          { reasoning: plan },
          { toolCall: { id: 'call_1', name: 'write_todo', args: TODO_ARGS } },
        ]),
      },
      { events: openAiEvents([{ reasoning: 'Checked.', field: 'reasoning' }, { text: 'Done.' }]) },
    );
    const result = await service.send(chat.id, 'Checklist please.');
    expect(result).toMatchObject({ status: 'completed', text: 'Done.' });

    const [first, second] = posts(fixture);
    expect(first?.body.reasoning_effort).toBe('low');
    expect(reasoningText(events)).toBe(`${plan}Checked.`);
    // The call's arguments are the call's alone.
    const call = events.find((e) => e.type === 'tool.call');
    expect(call).toMatchObject({ name: 'write_todo', args: TODO_ARGS });
    expect(store.toolCalls.list(chat.id)[0]?.args).toBe(TODO_ARGS);
    expect(store.todos.get(chat.id).map((item) => item.text)).toEqual(['check the figures']);
    // DeepSeek wants the reasoning of a message that called tools back, in the field it came in.
    const assistant = second?.body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(assistant).toMatchObject({ reasoning_content: plan, tool_calls: [{ id: 'call_1' }] });
    expect(assistant.tool_calls[0].function.arguments).toBe(TODO_ARGS);

    // A plain answer's reasoning goes back too, in its own field (DeepSeek wants all of it once tools are declared).
    server.enqueue({ events: openAiEvents([{ text: 'Sure.' }]) });
    await service.send(chat.id, 'Thanks');
    const third = posts(fixture)[2];
    const answered = third?.body.messages.filter((m: { role: string }) => m.role === 'assistant').at(-1);
    expect(answered).toEqual({ role: 'assistant', content: 'Done.', reasoning: 'Checked.' });
  });

  it('with reasoning off, no reasoning_effort is sent', async () => {
    fixture = await chatFixture();
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    server.enqueue({ events: openAiEvents([{ text: 'Hi.' }]) });
    await service.send(chat.id, 'Hi');
    expect(posts(fixture)[0]?.body).not.toHaveProperty('reasoning_effort');
  });

  it('the settings level applies to chats left at default, and a refusal of reasoning_effort is said once', async () => {
    fixture = await chatFixture();
    const { server, service, core } = fixture;
    fs.writeFileSync(core.paths.settings, JSON.stringify({ reasoning: 'high' }));
    const events = record(fixture);
    const chat = service.createChat({ workspace: fixture.workspace });
    server.enqueue(
      {
        status: 400,
        body: {
          error: {
            message: 'Unrecognized request argument supplied: reasoning_effort',
            type: 'invalid_request_error',
          },
        },
      },
      { events: openAiEvents([{ text: 'Hi.' }]) },
    );
    expect(await service.send(chat.id, 'Hi')).toMatchObject({ status: 'completed', text: 'Hi.' });
    const [first, second] = posts(fixture);
    expect(first?.body.reasoning_effort).toBe('high');
    expect(second?.body).not.toHaveProperty('reasoning_effort');
    expect(events.filter((e) => e.type === 'notice')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('refused reasoning effort') }),
    ]);
  });
});

describe('agenvoy chat --reasoning', () => {
  it('sets the chat’s level for the request, and refuses an unknown level before anything opens', async () => {
    fixture = await chatFixture();
    const { server, home } = fixture;
    fs.writeFileSync(
      path.join(home, 'desktop', 'settings.json'),
      JSON.stringify({ provider: 'openai', baseUrl: server.baseUrl, model: 'test-model', apiKeyName: null }),
    );
    server.enqueue({ events: openAiEvents([{ reasoning: 'Hm.' }, { text: 'Yes.' }]) });
    const cwd = fixture.workspace;
    const run = await runCli(['chat', 'think', '--reasoning', 'medium', '--workspace', cwd, '--json'], {
      home,
      cwd,
    });
    expect(run.code).toBe(0);
    expect(posts(fixture)[0]?.body.reasoning_effort).toBe('medium');
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; delta?: string });
    expect(
      lines
        .filter((l) => l.type === 'reasoning.delta')
        .map((l) => l.delta)
        .join(''),
    ).toBe('Hm.');
    const refused = await runCli(['chat', 'think', '--reasoning', 'max', '--workspace', cwd], { home, cwd });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--reasoning must be one of default, off, low, medium, high');
    expect(posts(fixture)).toHaveLength(1);
  });
});

describe('a model that refuses images', () => {
  it('gets the request again with each image named as left out, and the person is told once', async () => {
    fixture = await chatFixture();
    const { server, service } = fixture;
    const events = record(fixture);
    const chat = service.createChat({ workspace: fixture.workspace });
    const image = {
      type: 'image' as const,
      mimeType: 'image/png',
      data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    };
    server.enqueue(
      {
        status: 400,
        body: { error: { message: 'Invalid content type. image_url is only supported by certain models.' } },
      },
      { events: openAiEvents([{ text: 'I cannot see it.' }]) },
      { events: openAiEvents([{ text: 'Still cannot.' }]) },
    );
    await service.send(chat.id, 'What is in this picture?', undefined, [image]);
    await service.send(chat.id, 'And now?');
    const [first, second, third] = posts(fixture);
    expect(JSON.stringify(first?.body)).toContain(`data:image/png;base64,${image.data}`);
    for (const later of [second, third]) {
      expect(JSON.stringify(later?.body)).not.toContain('image_url');
      expect(JSON.stringify(later?.body)).toContain('an image (image/png) was left out');
    }
    expect(events.filter((e) => e.type === 'notice')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('refused images') }),
    ]);
  });
});

/** Every file of the history (the database and its write-ahead log) never holds the secret, and does hold `stored`. */
function expectOnDiskOnlyRedacted(home: string, secret: string, stored: string): void {
  const desktop = path.join(home, 'desktop');
  const files = fs
    .readdirSync(desktop, { recursive: true })
    .map((name) => path.join(desktop, String(name)))
    .filter((file) => fs.statSync(file).isFile())
    .map((file) => fs.readFileSync(file));
  expect(files.some((bytes) => bytes.includes(Buffer.from(secret)))).toBe(false);
  // The reasoning was stored: the check above looked where it is.
  expect(files.some((bytes) => bytes.includes(Buffer.from(stored)))).toBe(true);
}

function anthropicError(message: string) {
  return { type: 'error', error: { type: 'invalid_request_error', message } };
}
