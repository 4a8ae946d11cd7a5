// Speed and memory of ToolIndex at 10,000 tools: build time, query latency (cold and warm synonym
// cache), incremental upsert/remove, and the heap the index holds. "Cold" means a fresh WordNet reader
// and synonym cache for every query word seen the first time, after the JIT has warmed up elsewhere.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pathToFileURL } from 'node:url';
import { WordNetSynonyms } from '../main/search/synonyms';
import { ToolIndex } from '../main/search/tool-index';
import type { IndexedTool } from '../main/search/tool-index';
import { syntheticTools } from './find-tools-synthetic';
import type { BenchRow } from './report';
import { percentile } from './report';
import { loadEvalSet } from './find-tools-eval-bench';
import { loadRetrievalSet } from './retrieval-bench';

const BENCH = 'find-tools';
const TOOL_COUNT = 10_000;
const RUNS = 5;
const QUERY_LIMIT = 10;

/** The 10,000 tools: both real catalogues plus synthetic tools, so real queries have real answers. */
export function benchTools(count = TOOL_COUNT): IndexedTool[] {
  const catalogue = [...loadRetrievalSet().tools, ...loadEvalSet().tools];
  return [...catalogue, ...syntheticTools(count - catalogue.length)];
}

/** A few hundred queries: both query sets (other languages included) plus phrasings over synthetic tools. */
export function benchQueries(): string[] {
  const queries = [...loadRetrievalSet().queries, ...loadEvalSet().queries].map((query) => query.query);
  const synthetic = syntheticTools(2_000);
  const templates = [
    (service: string, noun: string) => `create a ${noun} in ${service}`,
    (service: string, noun: string) => `how many ${noun}s do we have in ${service}`,
    (_service: string, noun: string) => `remove the old ${noun}`,
    (service: string, noun: string) => `${service} ${noun} export to csv`,
    (_service: string, noun: string) => `find ${noun}s about the migration`,
    (service: string, noun: string) => `${misspell(service)} ${misspell(noun)}`,
  ];
  for (let i = 0; queries.length < 600; i++) {
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

  // Heap first, before anything was tokenised, so module caches (stems) count as the index's.
  gc.collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const index = new ToolIndex({ synonyms: new WordNetSynonyms() });
  for (const tool of tools) index.upsert(tool);
  gc.collect();
  const indexHeap = mebibytes(process.memoryUsage().heapUsed - heapBefore);

  // The first build's query pass warms the JIT. Then each run builds a fresh index with its own WordNet
  // reader and synonym cache and times a cold pass and a warm pass. On a shared 2-core machine a query
  // is now and then descheduled for tens of ms; interference only adds time, so each query's latency is
  // its minimum over the runs (raw figures are reported too).
  const firstQuery = warmUpJit(tools, queries);
  const runs = Array.from({ length: RUNS }, () => {
    const build = timeBuild(tools);
    gc.collect();
    const cold = latencies(build.index, queries);
    return { build: build.milliseconds, cold, warm: latencies(build.index, queries) };
  });
  const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);
  const perQueryMin = (pick: (run: (typeof runs)[number]) => number[]): number[] =>
    sorted(queries.map((_, i) => Math.min(...runs.map((run) => pick(run)[i] ?? Number.NaN))));
  const cold = perQueryMin((run) => run.cold);
  const warm = perQueryMin((run) => run.warm);
  const rawCold = sorted(runs.flatMap((run) => run.cold));

  // The measured index serves the queries too, so its synonym cache is as full as it gets.
  latencies(index, queries);
  latencies(index, queries);
  gc.collect();
  const withCache = mebibytes(process.memoryUsage().heapUsed - heapBefore);
  const upsertMicros = timeEach(syntheticTools(TOOL_COUNT + 100).slice(TOOL_COUNT), (tool) =>
    index.upsert(tool),
  );
  const removeMicros = timeEach(syntheticTools(TOOL_COUNT + 100).slice(TOOL_COUNT), (tool) =>
    index.remove(tool.name),
  );

  const per = `${queries.length} queries, each its min of ${RUNS} runs`;
  return [
    row(
      `build ${tools.length} tools (median of ${RUNS})`,
      percentile(sorted(runs.map((r) => r.build)), 50),
      'ms',
      1000,
    ),
    row('first query of the process (cold JIT, files and caches)', firstQuery, 'ms'),
    row(`query p50, cold synonym cache (${per})`, percentile(cold, 50), 'ms', 1),
    row(`query p99, cold synonym cache (${per})`, percentile(cold, 99), 'ms', 5),
    row(`query max, cold synonym cache (${per})`, cold.at(-1) ?? Number.NaN, 'ms'),
    row(`query p50, warm (${per})`, percentile(warm, 50), 'ms', 1),
    row(`query p99, warm (${per})`, percentile(warm, 99), 'ms', 5),
    row(`query p50, cold, raw (all ${rawCold.length} timings)`, percentile(rawCold, 50), 'ms'),
    row(`query p99, cold, raw (all ${rawCold.length} timings)`, percentile(rawCold, 99), 'ms'),
    row(`heap held by the index (${gc.method})`, indexHeap, 'MiB', 50),
    row(`heap held by the index + its synonym cache (${gc.method})`, withCache, 'MiB', 50),
    row('upsert one tool into 10,000 (mean of 100)', upsertMicros, 'µs'),
    row('remove one tool from 10,000 (mean of 100)', removeMicros, 'µs'),
  ];
}

// Builds a throwaway index and runs every query once; returns the latency of the very first query.
function warmUpJit(tools: readonly IndexedTool[], queries: readonly string[]): number {
  const { index } = timeBuild(tools);
  const first = latencies(index, queries.slice(0, 1))[0] ?? Number.NaN;
  latencies(index, queries);
  return first;
}

function mebibytes(bytes: number): number {
  return bytes / 2 ** 20;
}

// Mean µs per call.
function timeEach<T>(items: readonly T[], action: (item: T) => void): number {
  const started = performance.now();
  for (const item of items) action(item);
  return ((performance.now() - started) / items.length) * 1000;
}

function timeBuild(tools: readonly IndexedTool[]): { index: ToolIndex; milliseconds: number } {
  const index = new ToolIndex({ synonyms: new WordNetSynonyms() });
  const started = performance.now();
  for (const tool of tools) index.upsert(tool);
  return { index, milliseconds: performance.now() - started };
}

// Latencies in ms of one pass over the queries, in query order.
function latencies(index: ToolIndex, queries: readonly string[]): number[] {
  return queries.map((query) => {
    const started = performance.now();
    index.search(query, QUERY_LIMIT);
    return performance.now() - started;
  });
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
