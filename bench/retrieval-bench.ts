// Retrieval quality of ToolIndex on a fixed catalogue and query set, against a plain keyword baseline.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ToolIndex } from '../main/search/tool-index';
import type { IndexedTool } from '../main/search/tool-index';
import { contentWords } from '../main/search/tokenize';
import { syntheticTools } from './find-tools-synthetic';
import type { BenchRow } from './report';

/** One query of the retrieval set: a hit when any expected tool is ranked within k. */
export interface RetrievalQuery {
  query: string;
  kind: string;
  expected: string[];
}

/** A ranking function under test: names, best first. */
export type Ranker = (query: string, limit: number) => string[];

const BENCH = 'find-tools-retrieval';

/** The catalogue and queries stored in bench/data. */
export function loadRetrievalSet(): { tools: IndexedTool[]; queries: RetrievalQuery[] } {
  const read = (file: string): unknown =>
    JSON.parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8'));
  return {
    tools: read('retrieval-catalog.json') as IndexedTool[],
    queries: read('retrieval-queries.json') as RetrievalQuery[],
  };
}

/**
 * The baseline: score = how many distinct query words appear among the tool's name and description words
 * (split and lowercased, stopwords dropped, no stemming, no synonyms); ties by name.
 */
export function keywordBaseline(tools: readonly IndexedTool[]): Ranker {
  const documents = tools.map((tool) => ({
    name: tool.name,
    words: new Set(contentWords(`${tool.name} ${tool.description}`)),
  }));
  return (query, limit) => {
    const words = [...new Set(contentWords(query))];
    return documents
      .map((document) => ({
        name: document.name,
        score: words.filter((word) => document.words.has(word)).length,
      }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, limit)
      .map((hit) => hit.name);
  };
}

/** ToolIndex over the tools, as a Ranker. */
export function toolIndexRanker(tools: readonly IndexedTool[]): Ranker {
  const index = new ToolIndex();
  for (const tool of tools) index.upsert(tool);
  return (query, limit) => index.search(query, limit).map((hit) => hit.name);
}

/** Share of queries with an expected tool within the top k. */
export function recallAt(ranker: Ranker, queries: readonly RetrievalQuery[], k: number): number {
  if (queries.length === 0) return Number.NaN;
  const hits = queries.filter((query) => {
    const ranked = ranker(query.query, k);
    return query.expected.some((name) => ranked.includes(name));
  });
  return hits.length / queries.length;
}

/** Queries whose expected tools are all missing from the top k, with what was ranked instead. */
export function misses(ranker: Ranker, queries: readonly RetrievalQuery[], k: number): string[] {
  return queries.flatMap((query) => {
    const ranked = ranker(query.query, k);
    if (query.expected.some((name) => ranked.includes(name))) return [];
    return [`[${query.kind}] ${query.query} → want ${query.expected.join(' | ')}; got ${ranked.join(', ')}`];
  });
}

/**
 * Recall@1 and @5 of ToolIndex and the baseline, overall and per query kind; then the same queries with
 * the catalogue hidden among synthetic tools up to 10,000.
 */
export async function run(): Promise<BenchRow[]> {
  const { tools, queries } = loadRetrievalSet();
  let engine = toolIndexRanker(tools);
  let baseline = keywordBaseline(tools);
  const rows: BenchRow[] = [];
  const compare = (metric: string, subset: readonly RetrievalQuery[], k: number, target?: number): void => {
    rows.push(recallRow(BENCH, metric, engine, baseline, subset, k, target, true));
  };
  compare(`recall@1 (${queries.length} queries, ${tools.length} tools)`, queries, 1);
  compare(`recall@5 (${queries.length} queries, ${tools.length} tools)`, queries, 5, 0.9);
  for (const kind of [...new Set(queries.map((query) => query.kind))]) {
    const subset = queries.filter((query) => query.kind === kind);
    compare(`recall@1 ${kind} (${subset.length})`, subset, 1);
    compare(`recall@5 ${kind} (${subset.length})`, subset, 5);
  }
  const crowded = [...tools, ...syntheticTools(10_000 - tools.length)];
  engine = toolIndexRanker(crowded);
  baseline = keywordBaseline(crowded);
  // No target here: expected sets name catalogue tools only, so a synthetic equivalent ranked first (say
  // bitbucket's list_pull_requests for "list pull requests") counts as a miss.
  compare(`recall@1 among ${crowded.length} tools (synthetic equivalents count as misses)`, queries, 1);
  compare(`recall@5 among ${crowded.length} tools (synthetic equivalents count as misses)`, queries, 5);
  return rows;
}

/**
 * One recall row: the engine's recall@k over `subset` against the baseline's in the same run; with a target, met when
 * the recall reaches it (and, when `beatBaseline`, also exceeds the baseline's).
 */
export function recallRow(
  bench: string,
  metric: string,
  engine: Ranker,
  baseline: Ranker,
  subset: readonly RetrievalQuery[],
  k: number,
  target?: number,
  beatBaseline = false,
): BenchRow {
  const value = recallAt(engine, subset, k);
  const reference = recallAt(baseline, subset, k);
  const row: BenchRow = { bench, metric, value: round(value), unit: 'recall', reference: round(reference) };
  row.ratio = reference > 0 ? round(value / reference) : Number.POSITIVE_INFINITY;
  if (target !== undefined) {
    row.target = beatBaseline ? `≥ ${target} and > baseline` : `≥ ${target}`;
    row.met = value >= target && (!beatBaseline || value > reference);
  }
  return row;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await run();
  console.table(rows);
  if (process.argv.includes('--misses')) {
    const { tools, queries } = loadRetrievalSet();
    for (const line of misses(toolIndexRanker(tools), queries, 5)) console.log(line);
  }
}
