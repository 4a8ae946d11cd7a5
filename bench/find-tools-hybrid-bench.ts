// What embeddings add to a find_tools search (docs/search.md, "Embeddings (optional)"): the same catalogue of 10,000
// tools searched lexically and with the semantic ranking fused in, against a local server speaking OpenAI's
// /embeddings (768-number vectors, the size of common local models) with every tool's vector already computed. Two
// hybrid figures: the query's vector in memory (the fusion's own cost: 10,000 cosines and the fusion) and the query
// embedded by one request to the loopback server (adds an HTTP round trip; a real model adds its own inference time,
// which cannot be measured here). Recall with real embeddings cannot be measured on this machine: no model can be
// downloaded or reached.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolSpec } from '../tools/sdk/types';
import { defineTool } from '../tools/sdk/types';
import { HttpEmbeddingModel } from '../main/agent/embeddings/embedding-client';
import { startEmbeddingServer } from '../main/agent/embeddings/testing/embedding-server';
import { LoadedSchemas } from '../main/core/loaded-schemas';
import { ToolRegistry } from '../main/core/registry';
import { RegistryCatalog } from '../main/search/catalog';
import { SemanticSearch } from '../main/search/semantic-search';
import { openToolVectorCache } from '../main/store/tool-vector-cache';
import { benchQueries, benchTools } from './find-tools-bench';
import type { BenchRow } from './report';
import { percentile } from './report';

const BENCH = 'find-tools-hybrid';
const DIMENSIONS = 768;
const QUERIES = 200;
const RUNS = 3;
const LIMIT = 10;

/** Lexical and hybrid latency per query at 10,000 tools, and their ratio. */
export async function run(): Promise<BenchRow[]> {
  const server = await startEmbeddingServer({ dimensions: DIMENSIONS });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-hybrid-bench-'));
  const registry = new ToolRegistry(() => []);
  for (const tool of benchTools()) registry.register(spec(tool));
  const model = new HttpEmbeddingModel({
    wire: 'openai',
    baseUrl: server.baseUrl,
    model: 'bench-embed',
    keyName: null,
    getKey: async () => undefined,
  });
  const semantic = new SemanticSearch(registry, {
    source: { current: async () => ({ kind: 'ready', model }) },
    openCache: async () => openToolVectorCache(path.join(dir, 'tool-embeddings.db')),
  });
  const hybrid = new RegistryCatalog(registry, new LoadedSchemas(), undefined, semantic);
  const lexical = new RegistryCatalog(registry, new LoadedSchemas());
  try {
    const started = performance.now();
    await hybrid.settleEmbeddings();
    const embedAll = (performance.now() - started) / 1000;
    const requestsToEmbed = server.requests.openai;
    const queries = benchQueries().slice(0, QUERIES);
    // Warm both indexes' synonym caches and the JIT.
    for (const query of queries) {
      lexical.search(query, LIMIT);
      hybrid.search(query, LIMIT);
    }
    const lexicalMs = await perQuery(queries, (query) => lexical.searchAsync(query, LIMIT));
    // A new query: its vector is asked from the server once; then it is in memory.
    const requestMs: number[] = [];
    const warmMs: number[] = [];
    let notes = 0;
    for (const query of queries) {
      const first = performance.now();
      const result = await hybrid.searchAsync(query, LIMIT);
      requestMs.push(performance.now() - first);
      if (result.note) notes++;
      warmMs.push(await best(() => hybrid.searchAsync(query, LIMIT)));
    }
    const lexicalP50 = percentile(sorted(lexicalMs), 50);
    const warmP50 = percentile(sorted(warmMs), 50);
    const requestP50 = percentile(sorted(requestMs), 50);
    const per = `${queries.length} queries at ${registry.size} tools, ${DIMENSIONS}-number vectors`;
    return [
      row(`embed the catalogue through the local server (${requestsToEmbed} requests)`, embedAll, 's'),
      row(`lexical query p50 (${per}, min of ${RUNS})`, lexicalP50, 'ms'),
      row(`lexical query p99 (${per}, min of ${RUNS})`, percentile(sorted(lexicalMs), 99), 'ms'),
      {
        ...row(`hybrid query p50, query vector in memory (${per}, min of ${RUNS})`, warmP50, 'ms'),
        reference: round(lexicalP50),
        ratio: round(warmP50 / lexicalP50),
      },
      row(`hybrid query p99, query vector in memory`, percentile(sorted(warmMs), 99), 'ms'),
      {
        ...row(`hybrid query p50, one request to the loopback server (single runs)`, requestP50, 'ms'),
        reference: round(lexicalP50),
        ratio: round(requestP50 / lexicalP50),
      },
      row(`hybrid query p99, one request to the loopback server`, percentile(sorted(requestMs), 99), 'ms'),
      row('hybrid searches that fell back to keywords (a note)', notes, 'queries'),
    ];
  } finally {
    await hybrid.close();
    await lexical.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A bench tool as a registry spec whose handler does nothing. */
export function spec(tool: { name: string; description: string; parameters?: unknown }): ToolSpec {
  return defineTool({
    name: tool.name,
    description: tool.description,
    parameters: (tool.parameters as ToolSpec['parameters']) ?? { type: 'object', properties: {} },
    handler: () => 'ok',
  });
}

// Each query's best of RUNS, in ms: interference on a shared machine only adds time.
async function perQuery(
  queries: readonly string[],
  search: (query: string) => Promise<unknown>,
): Promise<number[]> {
  const out: number[] = [];
  for (const query of queries) out.push(await best(() => search(query)));
  return out;
}

async function best(action: () => Promise<unknown>): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await action();
    min = Math.min(min, performance.now() - started);
  }
  return min;
}

function sorted(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function row(metric: string, value: number, unit: string): BenchRow {
  return { bench: BENCH, metric, value: round(value), unit };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await run());
}
