// Grid search of the reranker's weights on the TUNE half of the evaluation set only (never the held-out
// half): prints the best settings by recall@1 + recall@5. `npx tsx bench/find-tools-tune.ts`.
import { pathToFileURL } from 'node:url';
import type { RerankWeights } from '../main/search/rerank';
import { ToolIndex } from '../main/search/tool-index';
import { loadEvalSet } from './find-tools-eval-bench';
import { recallAt } from './retrieval-bench';

/** Recall@1 and @5 on the tune half for one setting. */
export function tuneScore(weights: RerankWeights | false): { at1: number; at5: number } {
  const { tools, queries } = loadEvalSet();
  const tune = queries.filter((query) => query.split === 'tune');
  const index = new ToolIndex({ rerank: weights });
  for (const tool of tools) index.upsert(tool);
  const ranker = (query: string, limit: number): string[] =>
    index.search(query, limit).map((hit) => hit.name);
  return { at1: recallAt(ranker, tune, 1), at5: recallAt(ranker, tune, 5) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const grid = [0.8, 1.2, 1.6];
  const results: Array<{ weights: RerankWeights; at1: number; at5: number }> = [];
  for (const coverage of grid)
    for (const action of [0.1, 0.2, 0.3])
      for (const precision of [0.2, 0.35, 0.5, 0.8]) {
        const weights = { coverage, action, precision };
        results.push({ weights, ...tuneScore(weights) });
      }
  results.sort((a, b) => b.at1 + b.at5 - (a.at1 + a.at5));
  console.log('no rerank', tuneScore(false));
  for (const result of results.slice(0, 10)) console.log(JSON.stringify(result));
}
