// Prompt caching on the Anthropic wire (docs/agent-loop.md, "Prompt caching"), measured against a server that bills
// requests as the cache does (providers/testing/cache-accounting.ts): over a 20-round agent turn whose stable prefix
// is ~6k tokens, most input is read from cache, and a chat's next turn reads the previous turn's prefix too.
import { afterEach, describe, expect, it } from 'vitest';
import type { CacheBillingServer } from './providers/testing/anthropic-test-server';
import { anthropicEvents, startCacheBillingServer } from './providers/testing/anthropic-test-server';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const ROUNDS = 20;
// ~6k tokens of stable prefix: a long document pasted into the first message (system and tools add the rest).
const DOCUMENT = Array.from(
  { length: 600 },
  (_, i) => `Line ${i}: the quarterly figures for region ${i % 7}.`,
).join('\n');

function scriptTurn(server: CacheBillingServer, tag: string): void {
  for (let round = 0; round < ROUNDS; round += 1) {
    const args = JSON.stringify({ items: [{ text: `${tag} step ${round}`, status: 'in_progress' }] });
    server.enqueue({
      events: anthropicEvents([{ toolCall: { id: `toolu_${tag}_${round}`, name: 'write_todo', args } }]),
    });
  }
  server.enqueue({ events: anthropicEvents([{ text: `${tag} done.` }]) });
}

const share = (bills: CacheBillingServer['bills']) =>
  bills.reduce((sum, bill) => sum + bill.cacheRead, 0) / bills.reduce((sum, bill) => sum + bill.total, 0);

describe('prompt caching (Anthropic)', () => {
  it('reads at least 80 % of a 20-round turn’s input from cache, and the next turn keeps reading it', async () => {
    let server: CacheBillingServer | undefined;
    fixture = await chatFixture({
      wire: 'anthropic',
      maxRounds: ROUNDS + 5,
      startServer: async () => (server = await startCacheBillingServer()),
    });
    if (!server) throw new Error('no server');
    const billing = server;
    const { service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    scriptTurn(billing, 'first');
    const result = await service.send(chat.id, `Go through this document step by step:\n${DOCUMENT}`);
    expect(result).toMatchObject({ status: 'completed', rounds: ROUNDS + 1 });

    const first = billing.bills.slice();
    expect(first).toHaveLength(ROUNDS + 1);
    // The prefix really is ~6k tokens, the first request writes nothing (it may never be sent again) …
    expect(first[0]?.total).toBeGreaterThan(6000);
    expect(first[0]).toMatchObject({ cacheRead: 0, cacheWrite: 0 });
    // … and from the third request on, each reads everything up to the previous request's end.
    for (const bill of first.slice(2)) expect(bill.cacheRead).toBeGreaterThan(bill.total * 0.9);
    expect(share(first)).toBeGreaterThanOrEqual(0.8);
    // At most four breakpoints in any request, as the API allows.
    for (const request of billing.requests.filter((r) => r.method === 'POST')) {
      expect((JSON.stringify(request.body).match(/"cache_control"/g) ?? []).length).toBeLessThanOrEqual(4);
    }

    // The chat's next turn: its first request reads the previous turn's whole prefix.
    scriptTurn(billing, 'second');
    await service.send(chat.id, 'Now once more, briefly.');
    const next = billing.bills[first.length];
    expect(next?.cacheRead).toBeGreaterThan((next?.total ?? 0) * 0.9);
  });

  it('OpenAI-compatible: one prompt_cache_key per chat, the same in every round and turn, never the chat id', async () => {
    fixture = await chatFixture();
    const { server, service } = fixture;
    const one = service.createChat({ workspace: fixture.workspace });
    const two = service.createChat({ workspace: fixture.workspace });
    const todo = {
      events: openAiEvents([{ toolCall: { id: 'c1', name: 'write_todo', args: '{"items":[]}' } }]),
    };
    server.enqueue(
      todo,
      { events: openAiEvents([{ text: 'a' }]) },
      { events: openAiEvents([{ text: 'b' }]) },
    );
    server.enqueue({ events: openAiEvents([{ text: 'c' }]) });
    await service.send(one.id, 'first');
    await service.send(one.id, 'second');
    await service.send(two.id, 'other chat');
    const keys = server.requests.map((r) => r.body.prompt_cache_key as string);
    expect(keys[0]).toMatch(/^agenvoy-[0-9a-f]{32}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
    expect(keys.join(' ')).not.toContain(one.id);
  });
});
