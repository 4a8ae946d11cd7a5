// A stored key nobody has used yet (docs/security.md, "Redaction"): the redactor learnt a value only when something
// read it in this process, so a key kept in $AGENVOY_HOME/.secrets that no tool had used yet was not scrubbed when a
// command printed it from somewhere else — a clone's remote URL, a local config file — and it reached the model,
// the events and the chat database as itself. Through the real chat stack (ChatService, the dispatcher, the SQLite
// store), a real shell command and a scripted model; the key is only in the file, never looked up.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

const CANARY = 'ghp_UnreadCanary5Tz8Qw3';

let fixture: ChatFixture | undefined;
withoutKeychain();
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('a key stored in the secrets file but not used yet', () => {
  it('is scrubbed from a command that prints it', async () => {
    fixture = await chatFixture({
      prepare: (home) =>
        fs.writeFileSync(path.join(home, '.secrets'), `RELEASE_TOKEN=${CANARY}\n`, { mode: 0o600 }),
    });
    const { server, service, home } = fixture;
    fs.writeFileSync(
      path.join(fixture.workspace, 'remote.txt'),
      `origin https://x-access-token:${CANARY}@github.com/acme/site.git (fetch)\n`,
    );
    const events: string[] = [];
    service.on((event) => events.push(JSON.stringify(event)));
    server.enqueue(
      {
        events: openAiEvents([
          {
            toolCall: { id: 'r1', name: 'run_command', args: JSON.stringify({ command: 'cat remote.txt' }) },
          },
        ]),
      },
      { events: openAiEvents([{ text: 'done' }]) },
    );
    const chat = service.createChat({ workspace: fixture.workspace });
    expect(await service.send(chat.id, 'show the remote')).toMatchObject({ status: 'completed' });
    const model = JSON.stringify(server.requests.map((request) => request.body));
    expect(model).toContain('[redacted:RELEASE_TOKEN]');
    expect(model).not.toContain(CANARY);
    expect(events.join('\n')).not.toContain(CANARY);
    const desktop = path.join(home, 'desktop');
    for (const file of fs.readdirSync(desktop).filter((name) => name.startsWith('agenvoy.db')))
      expect(fs.readFileSync(path.join(desktop, file)).includes(CANARY), file).toBe(false);
  }, 60_000);
});
