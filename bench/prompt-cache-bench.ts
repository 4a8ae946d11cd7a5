// Prompt caching on the Anthropic wire: a scripted 20-round agent turn with a ~6k-token stable prefix, billed by a
// server that accounts for the prompt cache as the API does (main/agent/providers/testing/cache-accounting.ts). Prints
// the share of input read from cache and the input cost against the same requests with no caching (Anthropic's
// multipliers: cache writes 1.25×, cache reads 0.1× of the input price).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { CacheBillingServer } from '../main/agent/providers/testing/anthropic-test-server';
import {
  anthropicEvents,
  startCacheBillingServer,
} from '../main/agent/providers/testing/anthropic-test-server';
import { chatFixture } from '../main/agent/testing/chat-fixture';
import type { BenchRow } from './report';
import { printRows } from './print';

const BENCH = 'prompt cache';
const ROUNDS = 20;
const WRITE = 1.25;
const READ = 0.1;

/** Runs one 20-round turn and bills it. */
export async function run(): Promise<BenchRow[]> {
  let server: CacheBillingServer | undefined;
  const fixture = await chatFixture({
    wire: 'anthropic',
    maxRounds: ROUNDS + 5,
    startServer: async () => (server = await startCacheBillingServer()),
  });
  try {
    if (!server) throw new Error('no billing server');
    for (let round = 0; round < ROUNDS; round += 1) {
      const args = JSON.stringify({ items: [{ text: `step ${round}`, status: 'in_progress' }] });
      server.enqueue({
        events: anthropicEvents([{ toolCall: { id: `toolu_${round}`, name: 'write_todo', args } }]),
      });
    }
    server.enqueue({ events: anthropicEvents([{ text: 'done' }]) });
    const document = Array.from(
      { length: 600 },
      (_, i) => `Line ${i}: the quarterly figures for region ${i % 7}.`,
    );
    // Priced as Claude Sonnet 4.5, so the app's own usage records give the turn's cost in dollars.
    const sonnet = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    fs.writeFileSync(
      fixture.core.paths.settings,
      JSON.stringify({ prices: [{ model: 'test-model', ...sonnet }] }),
    );
    const chat = fixture.service.createChat({ workspace: fixture.workspace });
    await fixture.service.send(chat.id, `Go through this document step by step:\n${document.join('\n')}`);
    const bills = server.bills;
    const total = bills.reduce((sum, bill) => sum + bill.total, 0);
    const read = bills.reduce((sum, bill) => sum + bill.cacheRead, 0);
    const cost = bills.reduce(
      (sum, bill) => sum + bill.input + WRITE * bill.cacheWrite + READ * bill.cacheRead,
      0,
    );
    // What the app recorded (round_usage), against the same tokens all billed as uncached input.
    const rounds = fixture.store.usage.list(chat.id);
    const dollars = rounds.reduce((sum, r) => sum + (r.costUsd ?? Number.NaN), 0);
    const uncached = rounds.reduce((sum, r) => {
      const u = r.usage;
      const input = (u.inputTokens ?? 0) + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0);
      return sum + (input * sonnet.input + (u.outputTokens ?? 0) * sonnet.output) / 1e6;
    }, 0);
    return [
      {
        bench: BENCH,
        metric: `input read from cache over a ${ROUNDS}-round turn (${bills[0]?.total ?? 0}-token first request)`,
        value: Math.round((read / total) * 1000) / 10,
        unit: '%',
        target: '≥ 80 %',
        met: read / total >= 0.8,
      },
      {
        bench: BENCH,
        metric: 'input cost with caching, against the same requests uncached',
        value: Math.round(cost),
        unit: 'token-price units',
        reference: total,
        ratio: Math.round((cost / total) * 1000) / 1000,
      },
      {
        bench: BENCH,
        metric: `the turn's cost as the app recorded it (${rounds.length} rounds, Sonnet 4.5 prices), against uncached`,
        value: Math.round(dollars * 10_000) / 10_000,
        unit: 'US$',
        reference: Math.round(uncached * 10_000) / 10_000,
        ratio: Math.round((dollars / uncached) * 1000) / 1000,
      },
    ];
  } finally {
    await fixture.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printRows(await run());
