// Agent loop figures: request bytes under lazy exposure vs every schema, tool-call-to-start latency,
// and the share of a scripted turn's wall time spent committing events with synchronous=FULL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { defineTool } from '../tools/sdk/types';
import { toolDeclarations } from '../main/agent/tool-exposure';
import { chatFixture } from '../main/agent/testing/chat-fixture';
import { openAiEvents } from '../main/agent/providers/testing/openai-test-server';
import type { BenchRow } from './report';
import { percentile } from './report';
import { printRows } from './print';
import { loadRetrievalSet } from './retrieval-bench';

/** Bytes of tool definitions in one request: fixed set + nothing loaded vs all 300 schemas. */
async function requestBytes(): Promise<BenchRow[]> {
  const fixture = await chatFixture();
  try {
    const { tools: catalogue } = loadRetrievalSet();
    for (const tool of catalogue.slice(0, 300 - fixture.core.registry.size)) {
      fixture.core.registry.register(
        defineTool({
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters ?? { type: 'object', properties: {} },
          handler: () => '',
        }),
      );
    }
    const lazy = JSON.stringify(
      toolDeclarations(fixture.core.registry, fixture.core.schemas, 'bench'),
    ).length;
    const all = JSON.stringify(
      fixture.core.registry
        .all()
        .map((t) => ({ name: t.spec.name, description: t.spec.description, parameters: t.spec.parameters })),
    ).length;
    return [
      {
        bench: 'agent',
        metric: `tool definition bytes per request, ${fixture.core.registry.size} tools (lazy vs every schema)`,
        value: lazy,
        unit: 'B',
        reference: all,
        ratio: round(lazy / all),
        target: '≤ 10 %',
        met: lazy / all <= 0.1,
      },
    ];
  } finally {
    await fixture.close();
  }
}

/** From the provider's last byte of a tool call to the tool starting, over a real HTTP stream. */
async function callLatency(): Promise<BenchRow[]> {
  const fixture = await chatFixture();
  let lastByteAt = 0;
  const frames = openAiEvents([{ toolCall: { id: 'x', name: 'write_todo', args: '{"items":[]}' } }]);
  const answer = openAiEvents([{ text: 'ok' }]);
  let served = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const list = served++ % 2 === 0 ? frames : answer;
      for (const frame of list)
        res.write(`data: ${typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)}\n\n`);
      lastByteAt = performance.now();
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fixture.settings.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const samples: number[] = [];
  fixture.service.on((event) => {
    if (event.type === 'call.started') samples.push(performance.now() - lastByteAt);
  });
  try {
    const chat = fixture.service.createChat({ workspace: fixture.workspace });
    for (let i = 0; i < 40; i++) await fixture.service.send(chat.id, `turn ${i}`);
  } finally {
    server.close();
    await fixture.close();
  }
  samples.splice(0, 5);
  samples.sort((a, b) => a - b);
  const p50 = percentile(samples, 50);
  return [
    {
      bench: 'agent',
      metric: 'provider last byte of a tool call → tool started (median of 35)',
      value: round(p50),
      unit: 'ms',
      target: '≤ 5 ms',
      met: p50 <= 5,
    },
    { bench: 'agent', metric: 'same, p99', value: round(percentile(samples, 99)), unit: 'ms' },
  ];
}

/** A scripted 200-event turn streamed at 100 tokens/s: time spent in store writes vs wall time. */
async function persistShare(): Promise<BenchRow[]> {
  const fixture = await chatFixture();
  const { store, server, service } = fixture;
  let inStore = 0;
  let writes = 0;
  const costs: number[] = [];
  for (const table of [
    store.messages,
    store.toolCalls,
    store.notes,
    store.todos,
    store.schemas,
  ] as unknown as Array<Record<string, unknown>>) {
    for (const key of Object.getOwnPropertyNames(Object.getPrototypeOf(table))) {
      const original = table[key];
      if (typeof original !== 'function' || key === 'constructor' || /^(get|list|unseen)$/.test(key))
        continue;
      table[key] = (...args: unknown[]) => {
        const start = performance.now();
        try {
          return (original as (...a: unknown[]) => unknown).apply(table, args);
        } finally {
          const cost = performance.now() - start;
          costs.push(cost);
          inStore += cost;
          writes++;
        }
      };
    }
  }
  // 190 text chunks at 10 ms each (100 tokens/s) plus a tool round: about 200 committed events.
  const text = Array.from({ length: 190 }, (_, i) => `t${i} `).join('');
  server.enqueue(
    {
      events: openAiEvents([{ toolCall: { id: 'a', name: 'write_todo', args: '{"items":[{"text":"x"}]}' } }]),
    },
    { events: openAiEvents([{ text }], { chunkSize: 4 }), delayMs: 10 },
  );
  const chat = service.createChat({ workspace: fixture.workspace });
  let events = 0;
  service.on(() => events++);
  const started = performance.now();
  await service.send(chat.id, 'stream please');
  const wall = performance.now() - started;
  await fixture.close();
  costs.sort((a, b) => a - b);
  return [
    {
      bench: 'agent',
      metric: `persist one event, synchronous=FULL (median of ${writes} writes in the turn)`,
      value: round(percentile(costs, 50)),
      unit: 'ms',
    },
    { bench: 'agent', metric: 'persist one event, p99', value: round(percentile(costs, 99)), unit: 'ms' },
    {
      bench: 'agent',
      metric: `share of a scripted ${events}-event turn's wall time in store writes (${writes} commits, wall ${Math.round(wall)} ms)`,
      value: round((inStore / wall) * 100),
      unit: '%',
      target: '≤ 5 %',
      met: inStore / wall <= 0.05,
    },
  ];
}

/** Runs the three agent-loop measurements. */
export async function run(): Promise<BenchRow[]> {
  return [...(await requestBytes()), ...(await callLatency()), ...(await persistShare())];
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printRows(await run());
