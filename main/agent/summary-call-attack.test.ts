// A model that calls a tool in the summary round anyway (docs/agent-loop.md, "One turn"): past the round limit the
// request declares no tools, but a server may still stream a call. The turn ended as answered and ran nothing, yet the
// call was kept in the answer, so every later request told the model it was "interrupted: the app stopped before
// this call finished; it may or may not have run" — inviting it to make the call again, as if it had been started.
// The summary's calls are now dropped from what is kept, as a cut round's are.
import { afterEach, describe, expect, it } from 'vitest';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('a tool call in the summary round', () => {
  it('is not kept, so the next turn is not told it may have run', async () => {
    fixture = await chatFixture({ maxRounds: 1 });
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const todo = (id: string) => ({ toolCall: { id, name: 'write_todo', args: '{"items":[]}' } });
    server.enqueue(
      { events: openAiEvents([todo('r1')]) },
      { events: openAiEvents([{ text: 'Summary.' }, todo('sneaky')]) },
      { events: openAiEvents([{ text: 'ok' }]) },
    );
    expect(await service.send(chat.id, 'loop')).toMatchObject({ status: 'completed', rounds: 2 });
    expect(await service.send(chat.id, 'next')).toMatchObject({ status: 'completed' });
    const sent = JSON.stringify(server.requests[2]?.body.messages);
    expect(sent).toContain('Summary.');
    expect(sent).not.toContain('sneaky');
    expect(sent).not.toContain('interrupted');
  }, 60_000);
});
