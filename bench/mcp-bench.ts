// MCP call overhead: echo on server-everything through our dispatcher vs the raw SDK client on the same server
// binary in the same run, over stdio and Streamable HTTP (median and p99 per call; target: < 10 % on the median).
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EVERYTHING_BIN, mcpHarness, startEverythingHttp } from '../main/adapters/mcp/mcp-testing';
import type { BenchRow } from './report';
import { percentile } from './report';
import { printRows } from './print';

const WARMUP = 300;
const ROUNDS = 10;
const PER_ROUND = 200;
const TARGET_RATIO = 1.1;

type Call = (i: number) => Promise<unknown>;

async function sample(call: Call, count: number, into: number[] | null): Promise<void> {
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await call(i);
    into?.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}

// Alternating rounds, so drift (GC, CPU frequency, the other process) hits both paths alike.
async function compare(ours: Call, raw: Call): Promise<{ ours: number[]; raw: number[] }> {
  await sample(ours, WARMUP, null);
  await sample(raw, WARMUP, null);
  const times = { ours: [] as number[], raw: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    await sample(ours, PER_ROUND, times.ours);
    await sample(raw, PER_ROUND, times.raw);
  }
  times.ours.sort((a, b) => a - b);
  times.raw.sort((a, b) => a - b);
  return times;
}

function rows(transport: string, times: { ours: number[]; raw: number[] }): BenchRow[] {
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const median = [percentile(times.ours, 50), percentile(times.raw, 50)] as const;
  const p99 = [percentile(times.ours, 99), percentile(times.raw, 99)] as const;
  const ratio = median[0] / median[1];
  return [
    {
      bench: 'mcp',
      metric: `echo over ${transport}, dispatcher vs raw SDK client: median (${times.ours.length} calls)`,
      value: round(median[0]),
      unit: 'ms',
      reference: round(median[1]),
      ratio: round(ratio),
      target: `≤ ${TARGET_RATIO} × raw`,
      met: ratio <= TARGET_RATIO,
    },
    {
      bench: 'mcp',
      metric: `echo over ${transport}, dispatcher vs raw SDK client: p99`,
      value: round(p99[0]),
      unit: 'ms',
      reference: round(p99[1]),
      ratio: round(p99[0] / p99[1]),
    },
  ];
}

async function rawClient(transport: Transport): Promise<{ call: Call; close: () => Promise<void> }> {
  const client = new Client({ name: 'bench-raw', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return {
    call: (i) => client.callTool({ name: 'echo', arguments: { message: `m${i}` } }),
    close: () => client.close(),
  };
}

async function ourPath(server: Record<string, unknown>): Promise<{ call: Call; close: () => Promise<void> }> {
  // trust: true makes echo (readOnlyHint) alwaysAllow, so no approval stub is measured.
  const h = mcpHarness({ servers: { ev: { ...server, trust: true } } });
  await h.manager.start();
  if (h.state('ev')?.status !== 'ready')
    throw new Error(`server not ready: ${JSON.stringify(h.state('ev'))}`);
  return {
    call: async (i) => {
      const outcome = await h.dispatch('mcp__ev__echo', { message: `m${i}` });
      if (outcome.outcome !== 'ok') throw new Error(`echo failed: ${JSON.stringify(outcome)}`);
    },
    close: () => h.close(),
  };
}

/** Measures per-call latency of our path and the raw SDK path over stdio and Streamable HTTP. */
export async function run(): Promise<BenchRow[]> {
  const result: BenchRow[] = [];

  const stdioServer = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
  const ours = await ourPath(stdioServer);
  const raw = await rawClient(new StdioClientTransport({ ...stdioServer, stderr: 'ignore' }));
  try {
    result.push(...rows('stdio', await compare(ours.call, raw.call)));
  } finally {
    await ours.close();
    await raw.close();
  }

  // One HTTP server, two sessions: both paths talk to the very same process.
  const http = await startEverythingHttp();
  try {
    const oursHttp = await ourPath({ url: http.url });
    const rawHttp = await rawClient(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      result.push(...rows('Streamable HTTP', await compare(oursHttp.call, rawHttp.call)));
    } finally {
      await oursHttp.close();
      await rawHttp.close();
    }
  } finally {
    await http.stop();
  }
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printRows(await run());
