// Recall of find_tools on the evaluation set in bench/data/tool-catalog (real MCP servers' tools, queries
// written before any ranking): the fresh set and both halves of the first set, overall and per kind. Ranking work may
// look at the first set's two halves (the held-out half is spent); the fresh set, written by an author who never saw
// the ranking, is the figure that counts (bench/data/tool-catalog/README.md).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { IndexedTool } from '../main/search/tool-index';
import type { BenchRow } from './report';
import type { RetrievalQuery } from './retrieval-bench';
import { keywordBaseline, misses, recallRow, toolIndexRanker } from './retrieval-bench';

/** A query of the evaluation set, with its half of the split. */
export interface EvalQuery extends RetrievalQuery {
  split: 'tune' | 'held-out' | 'fresh';
}

const BENCH = 'find-tools-eval';
export const KINDS = ['keyword', 'intent', 'paraphrase', 'disambiguation', 'misspelling', 'non-english'];

/** The catalogue (source field dropped) and queries of the evaluation set. */
export function loadEvalSet(): { tools: IndexedTool[]; queries: EvalQuery[] } {
  const read = (file: string): unknown =>
    JSON.parse(readFileSync(new URL(`./data/tool-catalog/${file}`, import.meta.url), 'utf8'));
  const tools = (read('catalog.json') as Array<IndexedTool & { source: string }>).map(
    ({ name, description, parameters }) => ({ name, description, parameters }),
  );
  const queries = [...(read('queries.json') as EvalQuery[]), ...(read('queries-fresh.json') as EvalQuery[])];
  return { tools, queries };
}

/** Recall@1 and @5 per set and per kind, against the keyword baseline; targets on the fresh set. */
export async function run(): Promise<BenchRow[]> {
  const { tools, queries } = loadEvalSet();
  const engine = toolIndexRanker(tools);
  const baseline = keywordBaseline(tools);
  const rows: BenchRow[] = [];
  const add = (metric: string, subset: readonly EvalQuery[], k: number, target?: number): void => {
    rows.push(recallRow(BENCH, metric, engine, baseline, subset, k, target));
  };
  // The fresh set, written by another author who never saw the ranking, is the figure that counts; the first
  // held-out half was evaluated many times and is kept for comparison (bench/data/tool-catalog/README.md).
  for (const split of ['fresh', 'held-out', 'tune'] as const) {
    const half = queries.filter((query) => query.split === split);
    const held = split === 'fresh';
    add(
      `${split}: recall@1 (${half.length} queries, ${tools.length} tools)`,
      half,
      1,
      held ? 0.8 : undefined,
    );
    add(
      `${split}: recall@5 (${half.length} queries, ${tools.length} tools)`,
      half,
      5,
      held ? 0.95 : undefined,
    );
    for (const kind of KINDS) {
      const subset = half.filter((query) => query.kind === kind);
      add(`${split}: recall@1 ${kind} (${subset.length})`, subset, 1);
      add(`${split}: recall@5 ${kind} (${subset.length})`, subset, 5, held ? 0.85 : undefined);
    }
  }
  return rows;
}

// `--misses` lists the first set's misses only: looking at the fresh set's misses would be tuning on them.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await run();
  // `--tune` leaves the fresh set out: what ranking work may look at while it is under way.
  const shown = process.argv.includes('--tune')
    ? rows.filter((row) => !row.metric.startsWith('fresh'))
    : rows;
  for (const row of shown)
    console.log(`${row.metric.padEnd(48)} ${String(row.value).padEnd(6)} (baseline ${row.reference})`);
  if (process.argv.includes('--misses')) {
    const { tools, queries } = loadEvalSet();
    const tune = queries.filter((query) => query.split !== 'fresh');
    const k = Number(process.argv[process.argv.indexOf('--misses') + 1]) || 5;
    for (const line of misses(toolIndexRanker(tools), tune, k)) console.log(line);
  }
}
