// Attack: a chat made too large to open. A call's arguments and its result may each be a MiB, and a chat keeps every
// call, so a hostile model calling an allowed tool that prints a hostile repository's megabyte of log, or any tool
// with a megabyte of arguments, a few hundred times made a snapshot of hundreds of MiB: every card's whole text went
// to the window at once (and a hidden card's text into the page), and past ~512 MiB JSON could no longer write it, so
// the chat never opened again; a model's answers (16 Mi characters a round) did the same. Now a card gets the start of
// a long text and how much is left, live and reopened, an answer its first 200,000 characters, and `chats.call` and
// `chats.message` give one whole (docs/interface.md, "Large calls"). Through browser mode's real stack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../preload/contract';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import { CARD_TEXT_MIN_CHARS, SNAPSHOT_CARD_BUDGET } from '../host/card-text';
import { CARD_TEXT_CHARS } from '../host/shown-text';
import { MESSAGE_TEXT_CHARS } from '../host/message-text';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture, writeScript } from './testing/web-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

let fixture: WebFixture;
let client: TestClient;
withoutKeychain();

beforeAll(async () => {
  fixture = await webFixture({
    prepare: (home) =>
      writeScript(
        home,
        'dump',
        {
          name: 'dump_log',
          description:
            'Print the build log of the workspace in full.\nUse when a build failed and its log is needed.',
          parameters: { type: 'object', properties: {} },
          always_allow: true,
        },
        // Lines numbered so a slice of the whole can be checked in place; ~1.3 MB, past the 1 MiB result cap.
        'let s="";for(let i=0;i<40000;i++)s+=`log line ${i} ` + "x".repeat(20) + "\\n";process.stdout.write(s);',
      ),
  });
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
});

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

function expectRefused(refused: Result<unknown>, code: string): void {
  expect(refused.ok).toBe(false);
  if (!refused.ok) expect(refused.error.code).toBe(code);
}

describe('a chat of megabyte calls', () => {
  it('shows each card the start of its texts, live and reopened, and the whole on request', async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'big calls' })).id;
    const blob = 'B'.repeat(900_000);
    fixture.provider.enqueue(
      {
        events: openAiEvents(
          [
            { toolCall: { id: 'd1', name: 'script_dump_log', args: '{}' } },
            { toolCall: { id: 'd2', name: 'script_dump_log', args: '{}' } },
            { toolCall: { id: 'a1', name: 'no_such_tool', args: JSON.stringify({ blob }) } },
          ],
          { chunkSize: 65_536 },
        ),
      },
      { events: openAiEvents([{ text: 'Done.' }]) },
    );
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'show me the log' }));
    await client.chatEvent('turn.finished', (e) => e.chatId === chatId);

    // What the model read of the first call: the whole capped result.
    const round2 = JSON.stringify(fixture.provider.requests.at(-1)?.body);
    // (Booleans, not the texts: a failure would print megabytes.)
    expect(round2.includes('log line 30000 ')).toBe(true);

    // Live: no card event carries a whole megabyte.
    const cardEvents = client.events
      .filter((e) => e.channel === 'chat.event')
      .map((e) => e.payload as { type: string; chatId?: string; callId?: string })
      .filter((e) => e.chatId === chatId && (e.type === 'call.queued' || e.type === 'call.finished'));
    expect(cardEvents?.length).toBe(6);
    for (const event of cardEvents) expect(bytes(event), event.type).toBeLessThan(CARD_TEXT_CHARS + 4096);
    const finished = cardEvents.find((e) => e.type === 'call.finished' && e.callId === 'd1') as unknown as {
      outcome: { outcome: string; text: string };
      cut: number;
    };
    expect(finished.outcome.outcome).toBe('ok');
    expect(finished.cut).toBeGreaterThan(1_000_000 - CARD_TEXT_CHARS);

    // Reopened: the same start, and how much is left.
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    expect(bytes(snapshot)).toBeLessThan(4 * (CARD_TEXT_CHARS + 4096));
    const card = snapshot.toolCalls.find((call) => call.callId === 'd1');
    expect(card?.result?.startsWith('log line 0 ')).toBe(true);
    expect(card?.result?.length).toBe(CARD_TEXT_CHARS);
    const argsCard = snapshot.toolCalls.find((call) => call.callId === 'a1');
    expect(argsCard?.args?.length).toBe(CARD_TEXT_CHARS);
    expect(argsCard?.argsCut).toBe(JSON.stringify({ blob }).length - CARD_TEXT_CHARS);

    // On request, one call whole: what the model read.
    const whole = value(await client.bridge.api.invoke('chats.call', { chatId, callId: 'd1' }));
    expect(whole.resultCut ?? 0).toBe(0);
    expect(whole.result?.length).toBe((card?.result?.length ?? 0) + (card?.resultCut ?? 0));
    expect(whole.result?.includes('log line 30000 ')).toBe(true);
    const wholeArgs = value(await client.bridge.api.invoke('chats.call', { chatId, callId: 'a1' }));
    expect(JSON.parse(wholeArgs.args).blob === blob).toBe(true);

    // Only a call of that chat, by a known id.
    const other = value(await client.bridge.api.invoke('chats.create', { title: 'other' })).id;
    for (const request of [
      { chatId: other, callId: 'd1' },
      { chatId, callId: 'nope' },
    ])
      expectRefused(await client.bridge.api.invoke('chats.call', request), 'not_found');
  }, 120_000);

  it('opens a chat of hundreds of such calls in a few MiB, the newest cards fullest', async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'many calls' })).id;
    const store = fixture.host.runtime.store;
    const calls = 600;
    const result = 'r'.repeat(200_000);
    for (let i = 0; i < calls; i++) {
      const callId = `c${i}`;
      store.toolCalls.queued({
        chatId,
        callId,
        tool: 'dump_log',
        source: { kind: 'builtin' },
        args: JSON.stringify({ note: 'a'.repeat(50_000) }),
      });
      store.toolCalls.finished(chatId, callId, {
        outcome: 'ok',
        text: result,
        content: [{ type: 'text', text: result }],
        durationMs: 1,
      });
    }
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    expect(snapshot.toolCalls?.length).toBe(calls);
    // Whole, this chat is 150 MB; open, the budget and a short start of each older card.
    expect(bytes(snapshot)).toBeLessThan(SNAPSHOT_CARD_BUDGET + calls * (2 * CARD_TEXT_MIN_CHARS + 1024));
    const newest = snapshot.toolCalls.at(-1);
    const oldest = snapshot.toolCalls[0];
    expect(newest?.result?.length).toBe(CARD_TEXT_CHARS);
    expect(newest?.resultCut).toBe(result.length - CARD_TEXT_CHARS);
    expect(oldest?.result?.length).toBe(CARD_TEXT_MIN_CHARS);
    expect(oldest?.resultCut).toBe(result.length - CARD_TEXT_MIN_CHARS);
    const whole = value(await client.bridge.api.invoke('chats.call', { chatId, callId: 'c0' }));
    expect(whole.result === result).toBe(true);
  }, 120_000);

  it("shows each answer the start of a model's megabytes of text, and the whole on request", async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'big answers' })).id;
    const rounds = 4;
    const said = (round: number) => `round ${round} says ` + 'w'.repeat(2_000_000);
    for (let round = 0; round < rounds; round++)
      fixture.provider.enqueue({
        events: openAiEvents(
          [{ text: said(round) }, { toolCall: { id: `n${round}`, name: 'no_such_tool', args: '{}' } }],
          { chunkSize: 262_144 },
        ),
      });
    fixture.provider.enqueue({ events: openAiEvents([{ text: 'Done.' }]) });
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'talk' }));
    await client.chatEvent('turn.finished', (e) => e.chatId === chatId);

    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    const answers = snapshot.messages.filter((m) => m.kind === 'assistant' && m.text.startsWith('round '));
    expect(answers.length).toBe(rounds);
    expect(bytes(snapshot)).toBeLessThan(rounds * 2 * (MESSAGE_TEXT_CHARS + 4096));
    for (const answer of answers) {
      expect(answer.text.length).toBe(MESSAGE_TEXT_CHARS);
      expect(answer.cut).toBe(said(0).length - MESSAGE_TEXT_CHARS);
    }
    const first = answers[0] as (typeof answers)[number];
    const whole = value(await client.bridge.api.invoke('chats.message', { chatId, messageId: first.id }));
    expect(whole.cut ?? 0).toBe(0);
    expect(whole.text === said(0)).toBe(true);

    const other = value(await client.bridge.api.invoke('chats.create', { title: 'other answers' })).id;
    for (const request of [
      { chatId: other, messageId: first.id },
      { chatId, messageId: 1e12 },
    ])
      expectRefused(await client.bridge.api.invoke('chats.message', request), 'not_found');
    for (const messageId of [String(first.id), first.id + 0.5, -1])
      expectRefused(
        await client.bridge.api.invoke('chats.message', { chatId, messageId: messageId as number }),
        'invalid_request',
      );
  }, 120_000);

  it("lists a background task's megabyte result and error by their start", async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'big tasks' })).id;
    for (let i = 0; i < 3; i++)
      fixture.host.runtime.store.tasks.upsert({
        id: `task_big${i}`,
        chatId,
        tool: 'background_command',
        summary: 'build',
        status: i === 0 ? 'succeeded' : 'failed',
        startedAt: 1,
        endedAt: 2,
        limitMs: null,
        outputTail: '',
        result: i === 0 ? 'R'.repeat(1_000_000) : null,
        error: i === 0 ? null : 'E'.repeat(1_000_000),
      });
    const listed = value(await client.bridge.api.invoke('tasks.list', { chatId }));
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    for (const tasks of [listed, snapshot.tasks]) {
      expect(tasks.length).toBe(3);
      expect(bytes(tasks)).toBeLessThan(3 * (CARD_TEXT_CHARS + 1024));
      const done = tasks.find((task) => task.id === 'task_big0');
      expect(done?.result?.endsWith(`… [${1_000_000 - CARD_TEXT_CHARS} more characters cut]`)).toBe(true);
    }
  });
});
