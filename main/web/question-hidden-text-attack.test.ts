// A model's ask_user question carries a bidi override: `Delete the draft invoice<RLO>fdp.sh?` reads as
// `… invoicehs.pdf?`, and an override runs on to the end of its paragraph. The approval and secret dialogs show the
// model's words with hidden characters as escapes, but the question dialog showed its prompt and its choices as
// written. They are escapes too, through browser mode's real stack (docs/security.md, "What the person sees"); the
// choice the person picks is what the model is told.
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

describe("hidden characters in ask_user's question", () => {
  it('are escapes in the dialog, prompt and choices', async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'ask' })).id;
    const questions = [
      {
        id: 'q1',
        prompt: `Delete the draft invoice${RLO}fdp.sh?`,
        kind: 'single',
        options: [`yes, delete invoice${RLO}fdp.sh`, `no${ZWSP}`],
      },
    ];
    fixture.provider.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'a1', name: 'ask_user', args: JSON.stringify({ questions }) } },
        ]),
      },
      { events: openAiEvents([{ text: 'Done.' }]) },
    );
    const asked = client.dialog('question');
    const sent = client.bridge.api.invoke('turn.send', { chatId, text: 'tidy up' });
    const dialog = await asked;
    const [question] = dialog.questions;
    expect(question?.prompt).toContain('invoice\\u{202e}fdp.sh');
    expect(question?.options[0]).toContain('invoice\\u{202e}fdp.sh');
    expect(JSON.stringify(dialog)).not.toMatch(SHOWN_HIDDEN);
    value(
      await client.bridge.dialogs.answerQuestion({
        id: dialog.id,
        answer: { kind: 'answered', answers: { q1: question?.options[0] ?? '' } },
      }),
    );
    value(await sent);
    const finished = await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    expect(finished.status).toBe('completed');
  }, 60_000);
});
