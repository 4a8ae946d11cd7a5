// The contract's handlers through browser mode over a real WebSocket, against a real core, store and provider:
// a turn streams, an approval and a secret go round the dialogs, ask_user is answered, a turn is cancelled, and a
// new page gets the whole chat back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture, writeScript } from './testing/web-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

const CANARY = 'canary-WebSecret-5d1e77aa-value';
let fixture: WebFixture;
let client: TestClient;
withoutKeychain();

beforeAll(async () => {
  fixture = await webFixture({
    prepare: (home) => {
      writeScript(
        home,
        'echo',
        {
          name: 'echo_text',
          description:
            'Echo the text it is given back to the caller.\nUse when testing approvals; nothing else needs it.',
          parameters: {
            type: 'object',
            properties: { text: { type: 'string', description: 'The text to echo back.' } },
            required: ['text'],
          },
        },
        'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log("echo:"+JSON.parse(s).text));',
      );
      writeScript(
        home,
        'canary',
        {
          name: 'use_token',
          description:
            'Call a service with the canary token and report its length.\nUse when testing secret prompts.',
          parameters: { type: 'object', properties: {} },
          always_allow: true,
          secrets: ['CANARY_TOKEN'],
        },
        'console.log("token has " + process.env.CANARY_TOKEN.length + " chars; token=" + process.env.CANARY_TOKEN);',
      );
    },
  });
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
});

async function newChat(title: string): Promise<string> {
  return value(await client.bridge.api.invoke('chats.create', { title })).id;
}

describe('browser mode: chat over the WebSocket', () => {
  it('send → the turn streams its events, and the chat is stored', async () => {
    const chatId = await newChat('streaming');
    fixture.provider.enqueue({
      events: openAiEvents([{ text: 'Hello from the test model.' }], { chunkSize: 4 }),
    });
    expect(value(await client.bridge.api.invoke('turn.send', { chatId, text: 'hi there' }))).toEqual({
      started: true,
    });
    const finished = await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    expect(finished.status).toBe('completed');
    const deltas = client.events
      .filter((e) => e.channel === 'chat.event')
      .map((e) => e.payload as { type: string; chatId: string; delta?: string })
      .filter((e) => e.type === 'text.delta' && e.chatId === chatId);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.delta).join('')).toBe('Hello from the test model.');
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    expect(snapshot.messages.map((m) => [m.kind, m.text])).toEqual([
      ['user', 'hi there'],
      ['assistant', 'Hello from the test model.'],
    ]);
    expect(snapshot.chat.running).toBe(false);
    const list = value(await client.bridge.api.invoke('chats.list', {}));
    expect(list.find((chat) => chat.id === chatId)?.title).toBe('streaming');
    const hits = value(await client.bridge.api.invoke('chats.search', { query: 'test model' }));
    expect(hits.some((hit) => hit.chatId === chatId && hit.chatTitle === 'streaming')).toBe(true);
  });

  it('an approval dialog round trip: the full arguments are shown, Allow once runs the tool', async () => {
    const chatId = await newChat('approval');
    fixture.provider.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'f1', name: 'find_tools', args: '{"query":"select:script_echo_text"}' } },
        ]),
      },
      {
        events: openAiEvents([
          { toolCall: { id: 'e1', name: 'script_echo_text', args: '{"text":"approved words"}' } },
        ]),
      },
      { events: openAiEvents([{ text: 'The tool said it.' }]) },
    );
    const opened = client.dialog('approval');
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'echo something' }));
    const dialog = await opened;
    expect(dialog.chatId).toBe(chatId);
    expect(dialog.chatTitle).toBe('approval');
    expect(dialog.items).toHaveLength(1);
    expect(dialog.items[0]).toMatchObject({
      tool: 'script_echo_text',
      source: { kind: 'script' },
      offers: { chat: true, always: true },
    });
    expect(JSON.parse(dialog.items[0]?.args ?? '{}')).toEqual({ text: 'approved words' });
    const pendingNow = value(await client.bridge.dialogs.pending());
    expect(pendingNow.map((d) => d.id)).toContain(dialog.id);
    const gateAsking = client.events.find(
      (e) => e.channel === 'gate.event' && (e.payload as { type: string }).type === 'gate.asking',
    );
    expect(gateAsking).toBeDefined();
    const answered = await client.bridge.dialogs.answerApproval({
      id: dialog.id,
      index: 0,
      choice: { kind: 'allow_once' },
    });
    expect(value(answered)).toEqual({ pending: [] });
    const done = await client.chatEvent(
      'call.finished',
      (e) => e.chatId === chatId && e.tool === 'script_echo_text',
    );
    expect(done.outcome).toMatchObject({ outcome: 'ok', text: 'echo:approved words' });
    expect(client.dialogs).toContainEqual({ type: 'dialog.closed', id: dialog.id, reason: 'answered' });
    expect((await client.chatEvent('turn.finished', (e) => e.chatId === chatId)).status).toBe('completed');
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    const card = snapshot.toolCalls.find((call) => call.tool === 'script_echo_text');
    expect(card).toMatchObject({ status: 'finished', outcome: 'ok', result: 'echo:approved words' });
    expect(card?.approval).toMatchObject({ state: 'decided', decision: { kind: 'allow', scope: 'once' } });
    // The model read the tool's output.
    expect(JSON.stringify(fixture.provider.requests.at(-1)?.body.messages)).toContain('echo:approved words');
  });

  it('Deny with a reason: the model receives it', async () => {
    const chatId = await newChat('deny');
    fixture.provider.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'f1', name: 'find_tools', args: '{"query":"select:script_echo_text"}' } },
        ]),
      },
      { events: openAiEvents([{ toolCall: { id: 'e1', name: 'script_echo_text', args: '{"text":"no"}' } }]) },
      { events: openAiEvents([{ text: 'Understood.' }]) },
    );
    const opened = client.dialog('approval');
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'echo' }));
    const dialog = await opened;
    value(
      await client.bridge.dialogs.answerApproval({
        id: dialog.id,
        index: 0,
        choice: { kind: 'deny', reason: 'not in this folder, please' },
      }),
    );
    const done = await client.chatEvent(
      'call.finished',
      (e) => e.chatId === chatId && e.tool === 'script_echo_text',
    );
    expect(done.outcome).toMatchObject({ outcome: 'denied', reason: 'not in this folder, please' });
    await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    expect(JSON.stringify(fixture.provider.requests.at(-1)?.body.messages)).toContain(
      'not in this folder, please',
    );
  });

  it('a secret dialog round trip: stored, the call retried, the canary nowhere in events, store or log', async () => {
    const chatId = await newChat('secret');
    fixture.provider.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'f1', name: 'find_tools', args: '{"query":"select:script_use_token"}' } },
        ]),
      },
      { events: openAiEvents([{ toolCall: { id: 't1', name: 'script_use_token', args: '{}' } }]) },
      { events: openAiEvents([{ text: 'It worked.' }]) },
    );
    const opened = client.dialog('secret');
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'use the token' }));
    const dialog = await opened;
    expect(dialog).toMatchObject({ key: 'CANARY_TOKEN', forTool: 'script_use_token' });
    expect(dialog.question.length).toBeGreaterThan(0);
    value(
      await client.bridge.dialogs.answerSecret({ id: dialog.id, answer: { kind: 'value', value: CANARY } }),
    );
    const done = await client.chatEvent(
      'call.finished',
      (e) => e.chatId === chatId && e.tool === 'script_use_token' && e.outcome.outcome === 'ok',
    );
    expect(done.outcome).toMatchObject({ outcome: 'ok' });
    expect(JSON.stringify(done.outcome)).toContain(
      `token has ${CANARY.length} chars; token=[redacted:CANARY_TOKEN]`,
    );
    await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    // Stored where the secret store keeps it, and nowhere else.
    expect(fs.readFileSync(path.join(fixture.home, '.secrets'), 'utf8')).toContain(`CANARY_TOKEN=${CANARY}`);
    const keys = value(await client.bridge.api.invoke('secrets.list', {}));
    expect(keys.keys).toContainEqual({ key: 'CANARY_TOKEN', locations: ['file'] });
    expect(keys.backend).toBe('file');
    expect(JSON.stringify(keys)).not.toContain(CANARY);
    // Every frame the page received (replies, events, dialogs), and the provider's requests.
    expect(client.frames.join('\n')).not.toContain(CANARY);
    expect(JSON.stringify(fixture.provider.requests)).not.toContain(CANARY);
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    expect(JSON.stringify(snapshot)).not.toContain(CANARY);
    // The store's files and the logs, on disk (WAL included).
    const desktop = path.join(fixture.home, 'desktop');
    const files = fs
      .readdirSync(desktop, { recursive: true })
      .map((file) => path.join(desktop, String(file)));
    expect(files.some((file) => file.endsWith('agenvoy.db'))).toBe(true);
    expect(files.some((file) => file.includes(`${path.sep}logs${path.sep}`))).toBe(true);
    for (const file of files) {
      if (fs.statSync(file).isFile()) expect(fs.readFileSync(file).includes(CANARY), file).toBe(false);
    }
  });

  it('an ask_user question is answered in its dialog', async () => {
    const chatId = await newChat('question');
    fixture.provider.enqueue(
      {
        events: openAiEvents([
          {
            toolCall: {
              id: 'q1',
              name: 'ask_user',
              args: JSON.stringify({
                questions: [{ prompt: 'Which branch?', kind: 'single', options: ['main', 'dev'] }],
              }),
            },
          },
        ]),
      },
      { events: openAiEvents([{ text: 'Using dev.' }]) },
    );
    const opened = client.dialog('question');
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'ask me' }));
    const dialog = await opened;
    expect(dialog.questions).toEqual([
      { id: 'q1', prompt: 'Which branch?', kind: 'single', options: ['main', 'dev'] },
    ]);
    value(
      await client.bridge.dialogs.answerQuestion({
        id: dialog.id,
        answer: { kind: 'answered', answers: { q1: 'dev' } },
      }),
    );
    const done = await client.chatEvent('call.finished', (e) => e.chatId === chatId && e.tool === 'ask_user');
    expect(done.outcome).toMatchObject({ outcome: 'ok', text: 'Which branch?\n→ dev' });
    await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
  });

  it('cancel turn stops a streaming answer', async () => {
    const chatId = await newChat('cancel');
    fixture.provider.enqueue({
      events: openAiEvents([{ text: 'This answer never ends' }]).slice(0, 3),
      hang: true,
    });
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'talk forever' }));
    await client.chatEvent('text.delta', (e) => e.chatId === chatId);
    const busy = await client.bridge.api.invoke('turn.send', { chatId, text: 'again' });
    expect(busy).toMatchObject({ ok: false, error: { code: 'busy' } });
    const running = value(await client.bridge.api.invoke('chats.list', {})).find(
      (chat) => chat.id === chatId,
    );
    expect(running?.running).toBe(true);
    expect(value(await client.bridge.api.invoke('turn.cancel', { chatId }))).toEqual({ cancelled: true });
    const finished = await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    expect(finished.status).toBe('cancelled');
    expect(value(await client.bridge.api.invoke('turn.cancel', { chatId }))).toEqual({ cancelled: false });
  });

  it('a new page (reconnect or reload) gets the snapshot back', async () => {
    const second = await fixture.connect();
    const chats = value(await second.bridge.api.invoke('chats.list', {}));
    expect(chats.map((chat) => chat.title)).toEqual(
      expect.arrayContaining(['streaming', 'approval', 'deny', 'secret', 'question', 'cancel']),
    );
    const approval = chats.find((chat) => chat.title === 'approval');
    const snapshot = value(await second.bridge.api.invoke('chats.open', { chatId: approval?.id ?? '' }));
    expect(snapshot.messages.map((m) => m.kind)).toEqual(['user', 'assistant', 'assistant', 'assistant']);
    expect(snapshot.messages.at(-1)?.text).toBe('The tool said it.');
    expect(snapshot.toolCalls.map((call) => [call.tool, call.outcome])).toEqual([
      ['find_tools', 'ok'],
      ['script_echo_text', 'ok'],
    ]);
    expect(snapshot.pendingApprovals).toEqual([]);
    const cancelled = chats.find((chat) => chat.title === 'cancel');
    const stopped = value(await second.bridge.api.invoke('chats.open', { chatId: cancelled?.id ?? '' }));
    expect(stopped.messages.at(-1)).toMatchObject({ kind: 'assistant', status: 'cancelled' });
    second.close();
  });
});
