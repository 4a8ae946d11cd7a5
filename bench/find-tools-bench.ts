// Speed and memory of ToolIndex at 10,000 tools: build time, query latency (cold and warm synonym
// cache), incremental upsert/remove, and the heap the index holds.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import { WordNetSynonyms } from '../main/core/search/synonyms';
import { ToolIndex } from '../main/core/search/tool-index';
import type { IndexedTool } from '../main/core/search/tool-index';
import { syntheticTools } from './find-tools-synthetic';
import type { BenchRow } from './report';
import { percentile } from './report';
import { loadRetrievalSet } from './retrieval-bench';

const BENCH = 'find-tools';
const TOOL_COUNT = 10_000;
const BUILD_RUNS = 3;
const QUERY_LIMIT = 10;

/** The 10,000 tools: the retrieval catalogue plus synthetic tools, so real queries have real answers. */
export function benchTools(count = TOOL_COUNT): IndexedTool[] {
  const catalogue = loadRetrievalSet().tools;
  return [...catalogue, ...syntheticTools(count - catalogue.length)];
}

/** A few hundred queries: the retrieval set plus phrasings over the synthetic tools' words. */
export function benchQueries(): string[] {
  const queries = loadRetrievalSet().queries.map((query) => query.query);
  const synthetic = syntheticTools(2_000);
  const templates = [
    (service: string, noun: string) => `create a ${noun} in ${service}`,
    (service: string, noun: string) => `how many ${noun}s do we have in ${service}`,
    (_service: string, noun: string) => `remove the old ${noun}`,
    (service: string, noun: string) => `${service} ${noun} export to csv`,
    (_service: string, noun: string) => `find ${noun}s about the migration`,
    (service: string, noun: string) => `${misspell(service)} ${misspell(noun)}`,
  ];
  for (let i = 0; queries.length < 400; i++) {
    const tool = synthetic[(i * 37) % synthetic.length] as IndexedTool;
    const [, service = '', own = ''] = tool.name.split('__');
    const noun = own.split('_').slice(1).join(' ');
    queries.push((templates[i % templates.length] as (s: string, n: string) => string)(service, noun));
  }
  return queries;
}

/** Rows for build time, query p50/p99 (cold and warm), incremental updates and heap. */
export async function run(): Promise<BenchRow[]> {
  const tools = benchTools();
  const queries = benchQueries();
  const gc = findGc();
  const rows: BenchRow[] = [];

  const buildTimes: number[] = [];
  for (let i = 0; i < BUILD_RUNS; i++) buildTimes.push(timeBuild(tools));
  buildTimes.sort((a, b) => a - b);
  rows.push(row(`build ${tools.length} tools (median of ${BUILD_RUNS})`, percentile(buildTimes, 50), 'ms', 1000));

  gc.collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const index = new ToolIndex({ synonyms: new WordNetSynonyms() });
  for (const tool of tools) index.upsert(tool);
  gc.collect();
  const indexHeap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

  const cold = latencies(index, queries);
  const warm = latencies(index, queries);
  rows.push(row(`query p50, cold synonym cache (${queries.length} queries)`, percentile(cold, 50), 'ms', 1));
  rows.push(row(`query p99, cold synonym cache (${queries.length} queries)`, percentile(cold, 99), 'ms', 5));
  rows.push(row(`query max, cold synonym cache`, cold.at(-1) ?? Number.NaN, 'ms'));
  rows.push(row(`query p50, warm (${queries.length} queries)`, percentile(warm, 50), 'ms', 1));
  rows.push(row(`query p99, warm (${queries.length} queries)`, percentile(warm, 99), 'ms', 5));

  gc.collect();
  const withCaches = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  rows.push(row(`heap held by the index (${gc.method})`, indexHeap, 'MiB', 50));
  rows.push(row(`heap held by the index + synonym cache after the queries (${gc.method})`, withCaches, 'MiB', 50));

  const extra = syntheticTools(TOOL_COUNT + 100).slice(TOOL_COUNT);
  let started = performance.now();
  for (const tool of extra) index.upsert(tool);
  rows.push(row('upsert one tool into 10,000 (mean of 100)', ((performance.now() - started) / extra.length) * 1000, 'µs'));
  started = performance.now();
  for (const tool of extra) index.remove(tool.name);
  rows.push(row('remove one tool from 10,000 (mean of 100)', ((performance.now() - started) / extra.length) * 1000, 'µs'));
  return rows;
}

function timeBuild(tools: readonly IndexedTool[]): number {
  const index = new ToolIndex({ synonyms: new WordNetSynonyms() });
  const started = performance.now();
  for (const tool of tools) index.upsert(tool);
  return performance.now() - started;
}

// Sorted latencies in ms of one pass over the queries.
function latencies(index: ToolIndex, queries: readonly string[]): number[] {
  const times = queries.map((query) => {
    const started = performance.now();
    index.search(query, QUERY_LIMIT);
    return performance.now() - started;
  });
  return times.sort((a, b) => a - b);
}

function row(metric: string, value: number, unit: string, limit?: number): BenchRow {
  const rounded = Math.round(value * 1000) / 1000;
  const result: BenchRow = { bench: BENCH, metric, value: rounded, unit };
  if (limit !== undefined) {
    result.target = `≤ ${limit} ${unit}`;
    result.met = value <= limit;
  }
  return result;
}

// A typo a user would make: two neighbouring letters swapped.
function misspell(word: string): string {
  if (word.length < 5) return word;
  const at = Math.floor(word.length / 2);
  return word.slice(0, at - 1) + word.charAt(at) + word.charAt(at - 1) + word.slice(at + 1);
}

// A full collection when the runtime allows one (--expose-gc, or turned on through v8 flags);
// otherwise heap deltas are taken as they are, which overstates them by uncollected garbage.
function findGc(): { collect: () => void; method: string } {
  const global = globalThis as { gc?: () => void };
  if (typeof global.gc === 'function') return { collect: global.gc, method: 'global.gc' };
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    if (typeof gc === 'function') return { collect: gc as () => void, method: 'gc via v8 flag' };
  } catch {
    // fall through to plain deltas
  }
  return { collect: () => undefined, method: 'memoryUsage delta, no gc' };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await run());
}
