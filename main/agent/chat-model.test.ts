// A chat's own model (docs/agent-loop.md, "The model of a chat"), through the real chat stack against a local
// OpenAI-compatible server: the request names the chat's model once it has one, the settings' model otherwise, and
// the usage of each round is kept under the model that answered.
import { afterEach, describe, expect, it } from 'vitest';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const posts = (f: ChatFixture) => f.server.requests.filter((r) => r.method === 'POST');

describe('the model of a chat', () => {
  it('is the chat’s own when it picked one, else the settings’, read when each turn starts', async () => {
    fixture = await chatFixture();
    const { server, service, store } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const other = service.createChat({ workspace: fixture.workspace });
    server.enqueue(
      { events: openAiEvents([{ text: 'Default.' }]) },
      { events: openAiEvents([{ text: 'Own.' }]) },
      { events: openAiEvents([{ text: 'Other.' }]) },
      { events: openAiEvents([{ text: 'Back.' }]) },
    );
    await service.send(chat.id, 'one');
    store.chats.setModel(chat.id, 'picked-model');
    await service.send(chat.id, 'two');
    await service.send(other.id, 'three');
    store.chats.setModel(chat.id, null);
    await service.send(chat.id, 'four');
    const asked = posts(fixture).map((r) => (r.body as { model: string }).model);
    const settingsModel = asked[0];
    expect(settingsModel).toBeTruthy();
    expect(asked).toEqual([settingsModel, 'picked-model', settingsModel, settingsModel]);
    expect(store.usage.list(chat.id).map((u) => u.model)).toEqual([
      settingsModel,
      'picked-model',
      settingsModel,
    ]);
  });
});
