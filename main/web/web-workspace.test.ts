// The default workspace through browser mode (docs/security.md): without a choice each chat works in a folder of
// its own (~/Agenvoy/<title>), the app's own workspace is never the home folder, and choosing the home folder itself
// needs an explicit confirmation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture } from './testing/web-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

let fixture: WebFixture;
let client: TestClient;
let home: string;
withoutKeychain();

beforeAll(async () => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-user-home-')));
  fixture = await webFixture({ workspace: null, env: { HOME: home } });
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

const root = () => path.join(home, 'Agenvoy');

describe('browser mode: the default workspace', () => {
  it("the app's own workspace is ~/Agenvoy, never the home folder; settings name no default", async () => {
    expect(fixture.host.core.workspace).toBe(root());
    expect(fs.statSync(root()).isDirectory()).toBe(true);
    const settings = value(await client.bridge.api.invoke('settings.get', {}));
    expect(settings).toMatchObject({ defaultWorkspace: '', chatsFolder: root() });
    expect(value(await client.bridge.api.invoke('app.info', {})).defaultWorkspace).toBe('');
  });

  it('a new chat gets a folder of its own named after its title, unique, made safe', async () => {
    const a = value(await client.bridge.api.invoke('chats.create', { title: 'Fix: the/build?' }));
    const b = value(await client.bridge.api.invoke('chats.create', { title: 'Fix: the/build?' }));
    const hidden = value(await client.bridge.api.invoke('chats.create', { title: '../../.ssh' }));
    expect(a.workspace).toBe(path.join(root(), 'Fix the build'));
    expect(b.workspace).toBe(path.join(root(), 'Fix the build 2'));
    // Never a hidden folder, never a way out of ~/Agenvoy.
    expect(hidden.workspace).toBe(path.join(root(), 'ssh'));
    for (const chat of [a, b, hidden]) expect(fs.statSync(chat.workspace).isDirectory()).toBe(true);
  });

  it('a "New chat" folder takes the title of the first message while it is still empty', async () => {
    const chat = value(await client.bridge.api.invoke('chats.create', {}));
    expect(chat.workspace).toBe(path.join(root(), 'New chat'));
    fixture.provider.enqueue({ events: openAiEvents([{ text: 'done' }]) });
    value(
      await client.bridge.api.invoke('turn.send', { chatId: chat.id, text: 'Plan the garden\nwith details' }),
    );
    await client.chatEvent('turn.finished', (event) => event.chatId === chat.id);
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId: chat.id }));
    expect(snapshot.chat.title).toBe('Plan the garden');
    expect(snapshot.chat.workspace).toBe(path.join(root(), 'Plan the garden'));
    expect(fs.existsSync(path.join(root(), 'New chat'))).toBe(false);
    // The turn ran in the renamed folder.
    expect(fixture.provider.requests.at(-1)?.body.messages[0].content).toContain(
      path.join(root(), 'Plan the garden'),
    );

    // A folder with files in it keeps its name.
    const busy = value(await client.bridge.api.invoke('chats.create', {}));
    fs.writeFileSync(path.join(busy.workspace, 'notes.txt'), 'mine');
    fixture.provider.enqueue({ events: openAiEvents([{ text: 'ok' }]) });
    value(await client.bridge.api.invoke('turn.send', { chatId: busy.id, text: 'Another topic' }));
    await client.chatEvent('turn.finished', (event) => event.chatId === busy.id);
    expect(value(await client.bridge.api.invoke('chats.open', { chatId: busy.id })).chat.workspace).toBe(
      busy.workspace,
    );
  });

  it('the home folder itself needs confirmHome: for a chat, a move and the default', async () => {
    for (const workspace of [home, path.join(home, 'Agenvoy', '..')]) {
      expect(await client.bridge.api.invoke('chats.create', { workspace })).toMatchObject({
        ok: false,
        error: { code: 'confirm_required', message: expect.stringMatching(/whole home folder/) },
      });
    }
    const link = path.join(os.tmpdir(), `agenvoy-home-link-${process.pid}`);
    fs.rmSync(link, { force: true });
    fs.symlinkSync(home, link);
    expect(await client.bridge.api.invoke('chats.create', { workspace: link })).toMatchObject({
      ok: false,
      error: { code: 'confirm_required' },
    });
    fs.rmSync(link);
    expect(
      await client.bridge.api.invoke('chats.create', { workspace: home, confirmHome: 'yes' as never }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const chat = value(
      await client.bridge.api.invoke('chats.create', { workspace: home, confirmHome: true }),
    );
    expect(chat.workspace).toBe(home);

    const other = value(await client.bridge.api.invoke('chats.create', { title: 'other' }));
    expect(
      await client.bridge.api.invoke('chats.setWorkspace', { chatId: other.id, workspace: home }),
    ).toMatchObject({ ok: false, error: { code: 'confirm_required' } });
    expect(
      value(
        await client.bridge.api.invoke('chats.setWorkspace', {
          chatId: other.id,
          workspace: home,
          confirmHome: true,
        }),
      ).workspace,
    ).toBe(home);

    expect(await client.bridge.api.invoke('settings.save', { defaultWorkspace: home })).toMatchObject({
      ok: false,
      error: { code: 'confirm_required' },
    });
    expect(
      value(await client.bridge.api.invoke('settings.save', { defaultWorkspace: home, confirmHome: true }))
        .defaultWorkspace,
    ).toBe(home);
    expect(value(await client.bridge.api.invoke('chats.create', {})).workspace).toBe(home);
    // '' goes back to a folder of its own per chat.
    expect(
      value(await client.bridge.api.invoke('settings.save', { defaultWorkspace: '' })).defaultWorkspace,
    ).toBe('');
    const settingsFile = JSON.parse(
      fs.readFileSync(path.join(fixture.home, 'desktop', 'settings.json'), 'utf8'),
    );
    expect(settingsFile).not.toHaveProperty('defaultWorkspace');
    expect(value(await client.bridge.api.invoke('chats.create', {})).workspace).toMatch(
      new RegExp(`^${root()}/New chat( \\d+)?$`),
    );
  });
});

describe('the default workspace in settings.json', () => {
  it("becomes the app's workspace, except the home folder: then ~/Agenvoy", async () => {
    const userHome = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-user-home-')));
    const project = path.join(userHome, 'project');
    fs.mkdirSync(project);
    for (const [chosen, expected] of [
      [project, project],
      [userHome, path.join(userHome, 'Agenvoy')],
    ] as const) {
      const stack = await webFixture({
        workspace: null,
        env: { HOME: userHome },
        prepare: (agenvoyHome) => {
          const file = path.join(agenvoyHome, 'desktop', 'settings.json');
          fs.writeFileSync(
            file,
            JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), defaultWorkspace: chosen }),
          );
        },
      });
      try {
        expect(stack.host.core.workspace).toBe(expected);
      } finally {
        await stack.close();
      }
    }
    fs.rmSync(userHome, { recursive: true, force: true });
  });
});
