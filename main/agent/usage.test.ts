// Usage and cost (docs/agent-loop.md, "Usage and cost"): each round's tokens as the server reported them, the input
// split into uncached input, cache reads and cache writes, an unknown figure stored as unknown (NULL, never 0), and
// the cost from the price table. Real chat stack, real SQLite, local servers speaking each wire.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/testing/cli-harness';
import { chatSnapshot } from '../host/chat-snapshot';
import { costOf, DEFAULT_PRICES, priceFor, priceTable } from '../settings/model-prices';
import type { TurnEvent } from './turn-events';
import type { CacheBillingServer } from './providers/testing/anthropic-test-server';
import { anthropicEvents, startCacheBillingServer } from './providers/testing/anthropic-test-server';
import { openAiEvents, startOpenAiTestServer } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';

let fixture: ChatFixture | undefined;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const PRICE = { model: 'test-model', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const usageEvents = (events: TurnEvent[]) => events.filter((e) => e.type === 'usage');
const todo = (round: number) => JSON.stringify({ items: [{ text: `step ${round}`, status: 'in_progress' }] });

describe('usage per round', () => {
  it('Anthropic: uncached input, cache reads and writes as billed, stored per round with the cost', async () => {
    let server: CacheBillingServer | undefined;
    fixture = await chatFixture({
      wire: 'anthropic',
      startServer: async () => (server = await startCacheBillingServer()),
    });
    if (!server) throw new Error('no server');
    const { service, store, core } = fixture;
    fs.writeFileSync(core.paths.settings, JSON.stringify({ prices: [PRICE] }));
    const events: TurnEvent[] = [];
    service.on((event) => events.push(event));
    const chat = service.createChat({ workspace: fixture.workspace });
    for (let round = 0; round < 3; round++) {
      server.enqueue({
        events: anthropicEvents(
          [{ toolCall: { id: `toolu_${round}`, name: 'write_todo', args: todo(round) } }],
          {
            usage: { input: 0, output: 40 + round },
          },
        ),
      });
    }
    server.enqueue({ events: anthropicEvents([{ text: 'Done.' }], { usage: { input: 0, output: 7 } }) });
    await service.send(chat.id, `A long brief.\n${'Some context line.\n'.repeat(300)}`);

    const bills = server.bills;
    const said = usageEvents(events);
    expect(said).toHaveLength(4);
    said.forEach((event, i) => {
      const bill = bills[i];
      expect(event).toMatchObject({
        chatId: chat.id,
        round: i + 1,
        model: 'test-model',
        usage: {
          inputTokens: bill?.input,
          outputTokens: i < 3 ? 40 + i : 7,
          cacheReadTokens: bill?.cacheRead,
          cacheWriteTokens: bill?.cacheWrite,
        },
      });
      if (event.type !== 'usage') return;
      const expected =
        (event.usage.inputTokens! * 3 +
          event.usage.outputTokens! * 15 +
          event.usage.cacheReadTokens! * 0.3 +
          event.usage.cacheWriteTokens! * 3.75) /
        1e6;
      expect(event.costUsd).toBeCloseTo(expected, 12);
    });
    // The cache did its work: later rounds read most of their input.
    const last = said.at(-1);
    if (last?.type !== 'usage') throw new Error('no usage');
    expect(last.usage.cacheReadTokens).toBeGreaterThan(last.usage.inputTokens ?? Infinity);

    // Stored per round, keyed by the round's message, and on each assistant message of the snapshot.
    const rows = store.usage.list(chat.id);
    expect(rows.map((r) => r.round)).toEqual([1, 2, 3, 4]);
    expect(rows.map((r) => r.usage)).toEqual(said.map((e) => (e.type === 'usage' ? e.usage : null)));
    const snapshot = chatSnapshot(store, store.chats.get(chat.id)!, false);
    const assistants = snapshot.messages.filter((m) => m.kind === 'assistant');
    expect(assistants.map((m) => m.kind === 'assistant' && m.usage?.usage.outputTokens)).toEqual([
      40, 41, 42, 7,
    ]);
  });

  it('OpenAI-compatible: cached_tokens comes out of prompt_tokens; a server that reports nothing is unknown, not 0', async () => {
    fixture = await chatFixture();
    const { server, service, store } = fixture;
    const events: TurnEvent[] = [];
    service.on((event) => events.push(event));
    const chat = service.createChat({ workspace: fixture.workspace });
    server.enqueue(
      { events: openAiEvents([{ text: 'One.' }], { usage: { prompt: 1000, completion: 12, cached: 800 } }) },
      { events: openAiEvents([{ text: 'Two.' }], { usage: null }) },
    );
    await service.send(chat.id, 'one');
    await service.send(chat.id, 'two');
    const [first, second] = usageEvents(events);
    expect(first).toMatchObject({
      usage: { inputTokens: 200, outputTokens: 12, cacheReadTokens: 800, cacheWriteTokens: null },
      // test-model has no price.
      costUsd: null,
    });
    expect(second).toMatchObject({
      usage: { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null },
      costUsd: null,
    });
    // In the database the unknown figures are NULL.
    const db = new Database(path.join(fixture.home, 'desktop', 'agenvoy.db'), { readonly: true });
    cleanups.push(() => void db.close());
    const rows = db
      .prepare(
        'SELECT input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd FROM round_usage',
      )
      .all();
    expect(rows).toEqual([
      {
        input_tokens: 200,
        output_tokens: 12,
        cache_read_tokens: 800,
        cache_write_tokens: null,
        cost_usd: null,
      },
      {
        input_tokens: null,
        output_tokens: null,
        cache_read_tokens: null,
        cache_write_tokens: null,
        cost_usd: null,
      },
    ]);
    expect(store.usage.list(chat.id)).toHaveLength(2);
  });

  it('counts that are no whole number of tokens are unknown, and a cached count above the prompt leaves input at 0', async () => {
    fixture = await chatFixture();
    const { server, service, store } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const lying = (usage: Record<string, unknown>) => ({
      events: [
        ...openAiEvents([{ text: 'x' }], { usage: null, omitDone: true }),
        { data: { id: 'c', choices: [], usage } },
        { data: '[DONE]' },
      ],
    });
    server.enqueue(
      lying({ prompt_tokens: -5, completion_tokens: 2.5, prompt_tokens_details: { cached_tokens: 1e308 } }),
      lying({
        prompt_tokens: 100,
        completion_tokens: Number.MAX_SAFE_INTEGER + 2,
        prompt_cache_hit_tokens: 400,
      }),
    );
    await service.send(chat.id, 'one');
    await service.send(chat.id, 'two');
    expect(store.usage.list(chat.id).map((row) => row.usage)).toEqual([
      { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null },
      { inputTokens: 0, outputTokens: null, cacheReadTokens: 400, cacheWriteTokens: null },
    ]);
  });

  it('a round cut mid-stream still gets a row, with its figures unknown', async () => {
    fixture = await chatFixture();
    const { server, service, store } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    server.enqueue({ events: openAiEvents([{ text: 'The first half of it' }]), cutAfter: 3 });
    const result = await service.send(chat.id, 'go');
    expect(result.status).toBe('failed');
    expect(store.usage.list(chat.id)).toEqual([
      expect.objectContaining({
        round: 1,
        usage: { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null },
        costUsd: null,
      }),
    ]);
  });
});

describe('the price table', () => {
  it('matches exact ids, dated snapshots, dotted and prefixed forms, then the longest * row; nothing else', () => {
    const table = priceTable([
      { model: 'my-model-*', input: 1, output: 2, cacheRead: null, cacheWrite: null },
      ...DEFAULT_PRICES,
    ]);
    expect(priceFor(table, 'claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(priceFor(table, 'anthropic/claude-sonnet-4.5')).toMatchObject({ input: 3, output: 15 });
    expect(priceFor(table, 'anthropic/claude-opus-4.5')).toMatchObject({ input: 5, output: 25 });
    expect(priceFor(table, 'claude-opus-4-20250514')).toMatchObject({ input: 15, output: 75 });
    expect(priceFor(table, 'gpt-4o-2024-08-06')).toMatchObject({ input: 2.5 });
    expect(priceFor(table, 'gpt-4o-mini')).toMatchObject({ input: 0.15 });
    expect(priceFor(table, 'my-model-large')).toMatchObject({ input: 1 });
    // A model the table does not know is unknown, not priced like a neighbour.
    expect(priceFor(table, 'claude-opus-4-6')).toBeNull();
    expect(priceFor(table, 'gpt-4o-audio-preview')).toBeNull();
    expect(priceFor(table, 'llama3.2:latest')).toBeNull();
    // A missing cache price costs what input costs; an unknown count makes the cost unknown.
    const row = { model: 'm', input: 2, output: 4, cacheRead: null, cacheWrite: null };
    expect(
      costOf(row, { inputTokens: 10, outputTokens: 1, cacheReadTokens: 5, cacheWriteTokens: null }),
    ).toBeCloseTo((10 * 2 + 4 + 5 * 2) / 1e6);
    expect(
      costOf(row, { inputTokens: null, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }),
    ).toBeNull();
    expect(DEFAULT_PRICES.length).toBeGreaterThan(10);
    // Never saved: the shipped table; saved empty: nothing is priced.
    expect(priceTable(null)).toHaveLength(DEFAULT_PRICES.length);
    expect(priceFor(priceTable([]), 'gpt-4o')).toBeNull();
  });
});

describe('agenvoy chat --json', () => {
  it('prints one usage line per round in the documented shape, inputTokens being the uncached input', async () => {
    const server = await startOpenAiTestServer();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-usage-home-'));
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-usage-ws-'));
    cleanups.push(async () => {
      await server.close();
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(cwd, { recursive: true, force: true });
    });
    fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'desktop', 'settings.json'),
      JSON.stringify({
        provider: 'openai',
        baseUrl: server.baseUrl,
        model: 'gpt-4o-mini',
        apiKeyName: null,
      }),
    );
    server.enqueue(
      {
        events: openAiEvents([{ toolCall: { id: 'c1', name: 'write_todo', args: todo(1) } }], {
          usage: { prompt: 500, completion: 20, cached: 300 },
        }),
      },
      { events: openAiEvents([{ text: 'Done.' }], { usage: { prompt: 560, completion: 3 } }) },
    );
    const run = await runCli(['chat', 'plan it', '--approve', 'allow', '--workspace', cwd, '--json'], {
      home,
      cwd,
    });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const usage = lines.filter((line) => line.type === 'usage');
    expect(usage).toHaveLength(2);
    expect(usage[0]).toMatchObject({
      type: 'usage',
      chatId: expect.any(String),
      round: 1,
      usage: { inputTokens: 200, outputTokens: 20, cacheReadTokens: 300, cacheWriteTokens: null },
    });
    expect(Object.keys((usage[0] as { usage: object }).usage)).toEqual([
      'inputTokens',
      'outputTokens',
      'cacheReadTokens',
      'cacheWriteTokens',
    ]);
    expect(usage[1]).toMatchObject({ round: 2, usage: { inputTokens: 560, cacheReadTokens: null } });
    // gpt-4o-mini has a shipped price: 200 × 0.15 + 20 × 0.6 + 300 × 0.075 per million.
    expect(usage[0]?.costUsd).toBeCloseTo((200 * 0.15 + 20 * 0.6 + 300 * 0.075) / 1e6, 12);
  });
});
