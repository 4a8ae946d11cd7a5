// The cost of committing one chat event with synchronous=FULL, against synchronous=NORMAL in the same run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChatStore } from '../main/store/chat-store';
import { openChatStore } from '../main/store/chat-store';
import type { SyncMode } from '../main/store/connection';
import type { BenchRow } from './report';
import { percentile } from './report';
import { printRows } from './print';

/** Events in one scripted turn. */
export const TURN_EVENTS = 200;

const TURNS = 15;
const BENCH = 'store';

/** Deterministic filler text of about `bytes` bytes (words of a seeded generator). */
function filler(seed: number, bytes: number): string {
  const words = [
    'tool',
    'result',
    'the',
    'file',
    'returns',
    'config',
    'value',
    'error',
    'workspace',
    'summary',
  ];
  let state = seed;
  let text = '';
  while (text.length < bytes) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    text += `${words[state % words.length]} `;
  }
  return text.slice(0, bytes);
}

/** One scripted turn as a list of writes: a user message, four tool rounds with streamed text, a final answer. */
function scriptTurn(store: ChatStore, chatId: string, turn: number): Array<() => void> {
  const events: Array<() => void> = [];
  events.push(() =>
    store.messages.append(chatId, { role: 'user', content: [{ type: 'text', text: filler(turn, 400) }] }),
  );
  const stream = (
    steps: number,
    tail: Array<{ type: 'tool_call'; id: string; name: string; args: string }>,
  ) => {
    let id = 0;
    events.push(() => (id = store.messages.begin(chatId).id));
    // Checkpoints of a growing answer, ~100 bytes more each time (about 250 ms of a fast model).
    for (let step = 1; step <= steps; step++)
      events.push(() =>
        store.messages.checkpoint(id, [{ type: 'text', text: filler(turn + step, step * 100) }]),
      );
    events.push(() =>
      store.messages.finish(id, [{ type: 'text', text: filler(turn, steps * 100) }, ...tail], 'complete'),
    );
  };
  for (let round = 0; round < 4; round++) {
    const calls = [0, 1].map((i) => ({
      type: 'tool_call' as const,
      id: `t${turn}_r${round}_c${i}`,
      name: 'read_file',
      args: JSON.stringify({ path: `src/module_${round}_${i}.ts`, offset: 0, limit: 400 }),
    }));
    stream(30, calls);
    for (const call of calls)
      events.push(() =>
        store.toolCalls.queued({
          chatId,
          callId: call.id,
          tool: call.name,
          source: { kind: 'builtin' },
          args: call.args,
        }),
      );
    const first = calls[0] as (typeof calls)[number];
    events.push(() =>
      store.approvals.requested({ chatId, callId: first.id, tool: first.name, definitionHash: 'h' }),
    );
    events.push(() => store.approvals.decided(chatId, first.id, { kind: 'allow', scope: 'once' }));
    for (const call of calls)
      events.push(() => store.toolCalls.started(chatId, call.id, { limitMs: 900_000 }));
    for (const call of calls) {
      const text = filler(round, 2000);
      events.push(() =>
        store.toolCalls.finished(chatId, call.id, {
          outcome: 'ok',
          text,
          content: [{ type: 'text', text }],
          durationMs: 4,
        }),
      );
    }
    events.push(() =>
      store.messages.append(chatId, {
        role: 'tool_results',
        results: calls.map((c) => ({
          callId: c.id,
          name: c.name,
          content: [{ type: 'text', text: filler(round, 2000) }],
          isError: false,
        })),
      }),
    );
  }
  stream(TURN_EVENTS - events.length - 2 - 2, []);
  for (let i = 0; i < 2; i++)
    events.push(() =>
      store.todos.set(chatId, [{ text: 'read the modules', status: i ? 'done' : 'in_progress' }]),
    );
  if (events.length !== TURN_EVENTS) throw new Error(`scripted turn has ${events.length} events`);
  return events;
}

/** Times each event of one turn in µs. */
function timeTurn(store: ChatStore, turn: number): number[] {
  const chatId = `chat_${turn}`;
  store.chats.create({ id: chatId, title: `turn ${turn}`, workspace: '/w' });
  return scriptTurn(store, chatId, turn).map((event) => {
    const start = process.hrtime.bigint();
    event();
    return Number(process.hrtime.bigint() - start) / 1000;
  });
}

/** Measures per-event cost under FULL and NORMAL, turn by turn in alternation so both see the same disk. */
export async function run(): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-store-bench-'));
  const modes: SyncMode[] = ['full', 'normal'];
  const stores = modes.map((mode) => openChatStore(path.join(dir, `${mode}.db`), { synchronous: mode }));
  const samples = modes.map(() => [] as number[]);
  const turns = modes.map(() => [] as number[]);
  try {
    stores.forEach((store) => timeTurn(store, -1)); // warm-up: statements, pages, WAL file
    for (let turn = 0; turn < TURNS; turn++) {
      stores.forEach((store, m) => {
        const times = timeTurn(store, turn);
        samples[m]?.push(...times);
        turns[m]?.push(times.reduce((a, b) => a + b, 0) / 1000);
      });
    }
  } finally {
    stores.forEach((store) => store.close());
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const [full, normal] = samples.map((s) => s.sort((a, b) => a - b)) as [number[], number[]];
  const [fullTurns, normalTurns] = turns.map((t) => t.sort((a, b) => a - b)) as [number[], number[]];
  const row = (metric: string, value: number, reference: number, unit: string): BenchRow => ({
    bench: BENCH,
    metric,
    value: round(value),
    unit,
    reference: round(reference),
    ratio: round(value / reference),
  });
  const events = full.length;
  return [
    row(
      `persist one event, synchronous=FULL vs NORMAL (median of ${events})`,
      percentile(full, 50),
      percentile(normal, 50),
      'µs',
    ),
    row(
      `persist one event, synchronous=FULL vs NORMAL (p99 of ${events})`,
      percentile(full, 99),
      percentile(normal, 99),
      'µs',
    ),
    row(
      `persist a scripted ${TURN_EVENTS}-event turn, FULL vs NORMAL (median of ${TURNS})`,
      percentile(fullTurns, 50),
      percentile(normalTurns, 50),
      'ms',
    ),
  ];
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printRows(await run());
