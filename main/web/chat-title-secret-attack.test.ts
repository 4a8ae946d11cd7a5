// A secret in a chat's first message (docs/security.md, "Redaction"): the message itself is scrubbed before it is
// stored or shown, but the chat's title was taken from its first line as typed, and a chat with a folder of its own
// renames that folder after the title. So a stored key pasted into a new chat ("push with ghp_… please") reached the
// chats table, every page's chat list, and the name of the chat's folder, which the model is told as its workspace.
// Through browser mode's real stack (core, store, provider, WebSocket) with chats in folders of their own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture } from './testing/web-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

const KEY = 'ghp_TitleCanary7Wq2Lm9';

let fixture: WebFixture;
let client: TestClient;
let home: string;
withoutKeychain();

beforeAll(async () => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-title-home-')));
  fixture = await webFixture({
    workspace: null,
    env: { HOME: home },
    // No keychain in tests: the key lives in the 0600 file fallback.
    prepare: (agenvoyHome) =>
      fs.writeFileSync(path.join(agenvoyHome, '.secrets'), `GITHUB_TOKEN=${KEY}\n`, { mode: 0o600 }),
  });
  client = await fixture.connect();
}, 60_000);

afterAll(async () => {
  await fixture?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('a stored key in the first message of a new chat', () => {
  it('is scrubbed from the title, the chat list, the folder name and the database', async () => {
    // The key has been used in this process (a tool looked it up), so the redactor knows it.
    expect(await fixture.host.core.secrets.get('GITHUB_TOKEN')).toBe(KEY);
    const chatId = value(await client.bridge.api.invoke('chats.create', {})).id;
    fixture.provider.enqueue({ events: openAiEvents([{ text: 'Pushed.' }]) });
    value(await client.bridge.api.invoke('turn.send', { chatId, text: `push with ${KEY} please` }));
    await client.chatEvent('turn.finished', (event) => event.chatId === chatId);

    const list = value(await client.bridge.api.invoke('chats.list', {}));
    const chats = JSON.stringify(list);
    expect(chats).not.toContain(KEY);
    expect(chats).toContain('[redacted:GITHUB_TOKEN]');
    const workspace = list.find((chat) => chat.id === chatId)?.workspace ?? '';
    expect(workspace).not.toBe('');
    expect(workspace).not.toContain(KEY);
    expect(fs.readdirSync(path.dirname(workspace)).join('\n')).not.toContain(KEY);
    expect(JSON.stringify(fixture.provider.requests.map((request) => request.body))).not.toContain(KEY);
    expect(client.frames.join('\n')).not.toContain(KEY);
    const desktop = path.join(fixture.home, 'desktop');
    for (const file of fs.readdirSync(desktop).filter((name) => name.startsWith('agenvoy.db')))
      expect(fs.readFileSync(path.join(desktop, file)).includes(KEY), file).toBe(false);
  }, 60_000);
});
