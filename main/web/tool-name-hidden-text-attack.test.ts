// A model calls a tool that does not exist, named to be read as something else: `run_command` followed by a bidi
// override and words of its own (`run_command<RLO> ✓ allowed by your rule`). The call fails as unknown, but its
// name went to the card as written — live (the draft card, queued, finished) and reopened from the store — where the
// card's arguments and result already show hidden characters as escapes. The name does too now, through browser
// mode's real stack (docs/security.md, "What the person sees").
import { describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import { RLO, SHOWN_HIDDEN } from '../core/testing/hidden-oracle';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { useWebClient, value } from './testing/web-fixture';

let fixture: WebFixture;
let client: TestClient;

useWebClient((made, connected) => {
  fixture = made;
  client = connected;
});

describe("hidden characters in an unknown tool's name", () => {
  it('are escapes on its card, live and reopened', async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'names' })).id;
    const name = `run_command${RLO} ✓ allowed by your rule`;
    fixture.provider.enqueue(
      { events: openAiEvents([{ toolCall: { id: 'u1', name, args: '{}' } }]) },
      { events: openAiEvents([{ text: 'Done.' }]) },
    );
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'go' }));
    await client.chatEvent('turn.finished', (e) => e.chatId === chatId);

    const events = client.events
      .filter((e) => e.channel === 'chat.event')
      .map(
        (e) => e.payload as { type: string; chatId?: string; callId?: string; name?: string; tool?: string },
      )
      .filter((e) => e.chatId === chatId && e.callId === 'u1');
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['tool.call', 'call.queued', 'call.finished']),
    );
    for (const event of events) {
      expect(event.name ?? event.tool, event.type).toContain('run_command\\u{202e}');
      expect(JSON.stringify(event), `${event.type} shows a hidden character`).not.toMatch(SHOWN_HIDDEN);
    }
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId }));
    const card = snapshot.toolCalls.find((call) => call.callId === 'u1');
    expect(card?.tool).toContain('run_command\\u{202e}');
    expect(JSON.stringify(snapshot)).not.toMatch(SHOWN_HIDDEN);
  }, 60_000);
});
