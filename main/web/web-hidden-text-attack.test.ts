// Hidden characters on a call's card and in the rules list, end to end through browser mode's real stack (core,
// store, provider, WebSocket) (docs/security.md, "What the person sees"): a model's command carrying a bidi override,
// output that prints one, and a rule saved from that command. The approval prompt escapes them; the card (live and
// reopened from the store), its progress, a task and the rules list must too, or `invoice‮fdp.sh` reads as
// `invoicehs.pdf`.
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

describe('hidden characters a model or a tool wrote', () => {
  it('are escapes on the live card, its progress, the reopened card and the saved rule', async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'bidi' })).id;
    // Printed as written: the output carries the override and a zero-width space too.
    const command = `printf 'done: invoice${RLO}fdp.sh${ZWSP}\\n'`;
    fixture.provider.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'f1', name: 'find_tools', args: '{"query":"select:run_command"}' } },
        ]),
      },
      {
        events: openAiEvents([
          { toolCall: { id: 'r1', name: 'run_command', args: JSON.stringify({ command }) } },
        ]),
      },
      { events: openAiEvents([{ text: 'Done.' }]) },
    );
    const asked = client.dialog('approval');
    // The send resolves when the turn ends, which waits on the dialog answered below.
    const sent = client.bridge.api.invoke('turn.send', { chatId, text: 'print the invoice name' });
    const dialog = await asked;
    // The person saves a rule for the command as the model wrote it (the dialog offered it).
    expect(dialog.items[0]?.offers.always).toBe(true);
    await client.bridge.dialogs.answerApproval({
      id: dialog.id,
      index: 0,
      choice: { kind: 'allow_always', pattern: command },
    });
    value(await sent);
    const finished = await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    expect(finished.status).toBe('completed');

    const events = client.events
      .filter((e) => e.channel === 'chat.event')
      .map((e) => e.payload as { type: string; chatId?: string; tool?: string })
      .filter((e) => e.chatId === chatId && e.tool === 'run_command');
    const queued = events.find((e) => e.type === 'call.queued') as { args: string } | undefined;
    expect(queued?.args).toContain('invoice\\\\u{202e}fdp.sh');
    const result = events.find((e) => e.type === 'call.finished') as
      { outcome: { outcome: string; text: string } } | undefined;
    expect(result?.outcome.outcome).toBe('ok');
    expect(result?.outcome.text).toContain('done: invoice\\u{202e}fdp.sh\\u{200b}');
    const progress = events.filter((e) => e.type === 'call.progress');
    expect(progress.length).toBeGreaterThan(0);
    for (const event of [...events, ...progress]) {
      expect(JSON.stringify(event), `${event.type} shows a hidden character`).not.toMatch(SHOWN_HIDDEN);
    }

    // Reopened from the store: the same card, the same escapes.
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    const card = snapshot.toolCalls.find((call) => call.tool === 'run_command');
    expect(card?.args).toContain('invoice\\\\u{202e}fdp.sh');
    expect(card?.result).toContain('done: invoice\\u{202e}fdp.sh');
    expect(JSON.stringify(snapshot.toolCalls)).not.toMatch(SHOWN_HIDDEN);

    // The rule is stored as written (it must match the command), and listed with escapes.
    const { rules } = value(await client.bridge.api.invoke('rules.list', {}));
    const saved = rules.find((rule) => rule.origin === 'user' && rule.tool === 'run_command');
    expect(saved?.pattern).toContain('invoice\\u{202e}fdp.sh');
    expect(JSON.stringify(rules)).not.toMatch(SHOWN_HIDDEN);
  }, 90_000);
});
