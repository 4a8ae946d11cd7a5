// A canary secret used by a tool never reaches the provider, the database, the log or the events.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture, writeScriptTool } from './testing/chat-fixture';

const CANARY = 'canary-Secret-93f1c0de-value';
let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function canaryFixture(): Promise<ChatFixture> {
  const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };
  // No keychain here: the secret lives in the 0600 file of the temp AGENVOY_HOME.
  delete process.env.DBUS_SESSION_BUS_ADDRESS;
  delete process.env.DISPLAY;
  try {
    fixture = await chatFixture({
      prepare: (home) => {
        fs.writeFileSync(path.join(home, '.secrets'), `CANARY_TOKEN=${CANARY}\n`, { mode: 0o600 });
        writeScriptTool(
          home,
          'leak',
          {
            name: 'show_token',
            description:
              'Print the token it was given.\nUse when testing secret redaction; nothing else does this.',
            parameters: { type: 'object', properties: {} },
            secrets: ['CANARY_TOKEN'],
          },
          'console.log("token=" + process.env.CANARY_TOKEN); console.error("also " + process.env.CANARY_TOKEN); process.exit(process.argv.length > 9 ? 1 : 0);',
        );
      },
    });
  } finally {
    if (saved.bus !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = saved.bus;
    if (saved.display !== undefined) process.env.DISPLAY = saved.display;
  }
  return fixture;
}

describe('secret canary end to end', () => {
  it('never appears in provider requests, the database, the log or chat events', async () => {
    await canaryFixture();
    if (!fixture) throw new Error('no fixture');
    const { server, service, store, home } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const events: unknown[] = [];
    service.on((e) => events.push(e));
    server.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'a', name: 'find_tools', args: '{"query":"select:script_show_token"}' } },
        ]),
      },
      { events: openAiEvents([{ toolCall: { id: 'b', name: 'script_show_token', args: '{}' } }]) },
      { events: openAiEvents([{ text: 'done' }]) },
    );
    const result = await service.send(chat.id, 'show me the token');
    expect(result.status).toBe('completed');
    const toolResult = JSON.stringify(server.requests[2]?.body.messages);
    expect(toolResult).toContain('token=[redacted:CANARY_TOKEN]');
    expect(JSON.stringify(server.requests)).not.toContain(CANARY);
    expect(JSON.stringify(events)).not.toContain(CANARY);
    store.close();
    const desktop = path.join(home, 'desktop');
    for (const file of fs.readdirSync(desktop, { recursive: true }).map(String)) {
      const full = path.join(desktop, file);
      if (fs.statSync(full).isFile()) expect(fs.readFileSync(full).includes(CANARY), file).toBe(false);
    }
  });

  it('a secret the model streams in pieces is never emitted, not even a prefix of it in one delta', async () => {
    await canaryFixture();
    if (!fixture) throw new Error('no fixture');
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const deltas: string[] = [];
    service.on((e) => {
      if (e.type === 'text.delta') deltas.push(e.delta);
    });
    server.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'a', name: 'find_tools', args: '{"query":"select:script_show_token"}' } },
        ]),
      },
      { events: openAiEvents([{ toolCall: { id: 'b', name: 'script_show_token', args: '{}' } }]) },
      // A model that read the secret elsewhere (the person pasted it) repeats it, three characters per delta.
      { events: openAiEvents([{ text: `the token is ${CANARY}, keep it safe` }], { chunkSize: 3 }) },
    );
    expect((await service.send(chat.id, 'show me the token')).status).toBe('completed');
    const shown = deltas.join('');
    expect(shown).toBe('the token is [redacted:CANARY_TOKEN], keep it safe');
    // No delta carries a long piece of the secret either.
    for (const delta of deltas) expect(CANARY.includes(delta) && delta.length > 2, delta).toBe(false);
  });
});
