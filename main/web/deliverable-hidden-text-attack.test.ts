// Hidden characters in what a model writes for the side panels, end to end through browser mode's real stack (core,
// store, provider, WebSocket) (docs/security.md, "What the person sees"): write_result's file name and title, shown
// in the Deliverables list, and write_todo's items, shown in the checklist. A call's card escapes them, but the panels
// got them as written, so the deliverable `invoice<RLO>fdp.sh` read as `invoicehs.pdf` there, the one place the person
// is told which file to open. They must be escapes live and when the chat is reopened.
import { describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import { RLO, SHOWN_HIDDEN, ZWSP } from '../core/testing/hidden-oracle';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { useWebClient, value } from './testing/web-fixture';

let fixture: WebFixture;
let client: TestClient;

useWebClient((made, connected) => {
  fixture = made;
  client = connected;
});

describe('hidden characters in the checklist and the deliverables', () => {
  it('are escapes in the live events and in the reopened chat', async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'panels' })).id;
    const todo = { items: [{ text: `Send invoice${RLO}fdp.sh to the client${ZWSP}`, status: 'done' }] };
    const result = { path: `invoice${RLO}fdp.sh`, content: 'echo hi\n', title: `Invoice ${RLO}fdp.sh` };
    fixture.provider.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'f1', name: 'find_tools', args: '{"query":"select:write_todo,write_result"}' } },
        ]),
      },
      {
        events: openAiEvents([
          { toolCall: { id: 't1', name: 'write_todo', args: JSON.stringify(todo) } },
          { toolCall: { id: 'w1', name: 'write_result', args: JSON.stringify(result) } },
        ]),
      },
      { events: openAiEvents([{ text: 'Done.' }]) },
    );
    const sent = client.bridge.api.invoke('turn.send', { chatId, text: 'make the invoice' });
    // write_result writes a file: the person allows it once (the dialog escapes the name already).
    const dialog = await client.dialog('approval');
    await client.bridge.dialogs.answerApproval({ id: dialog.id, index: 0, choice: { kind: 'allow_once' } });
    value(await sent);
    const finished = await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    expect(finished.status).toBe('completed');

    const todos = await client.chatEvent('todo.updated', (e) => e.chatId === chatId);
    const published = await client.chatEvent('result.published', (e) => e.chatId === chatId);
    expect(todos.items[0]?.text).toContain('invoice\\u{202e}fdp.sh');
    expect(published.result.path).toContain('invoice\\u{202e}fdp.sh');
    expect(published.result.title).toContain('Invoice \\u{202e}fdp.sh');
    expect(JSON.stringify([todos, published])).not.toMatch(SHOWN_HIDDEN);

    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    expect(snapshot.todos[0]?.text).toContain('invoice\\u{202e}fdp.sh');
    expect(snapshot.results[0]?.path).toContain('invoice\\u{202e}fdp.sh');
    expect(JSON.stringify([snapshot.todos, snapshot.results])).not.toMatch(SHOWN_HIDDEN);
  }, 90_000);
});
