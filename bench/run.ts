// `npm run bench`: runs every benchmark in turn and prints one table with each figure and its reference.
import type { BenchModule, BenchRow } from './report';
import { printRows } from './print';

const modules: Array<[string, () => Promise<BenchModule>]> = [
  ['dispatch', () => import('./dispatch-bench')],
  ['script timeout', () => import('./script-timeout-bench')],
  ['sandbox', () => import('./sandbox-bench')],
  ['find_tools speed', () => import('./find-tools-bench')],
  ['find_tools retrieval', () => import('./retrieval-bench')],
  ['find_tools evaluation', () => import('./find-tools-eval-bench')],
  ['find_tools hybrid', () => import('./find-tools-hybrid-bench')],
  ['find_tools model', () => import('./find-tools-model-bench')],
  ['find_tools minilm', () => import('./find-tools-minilm-bench')],
  ['store', () => import('./store-bench')],
  ['agent loop', () => import('./agent-bench')],
  ['prompt cache', () => import('./prompt-cache-bench')],
  ['mcp', () => import('./mcp-bench')],
  ['ui', () => import('./ui-bench')],
  ['cli start', () => import('./cli-start-bench')],
];

const only = process.argv.slice(2);
const rows: BenchRow[] = [];
for (const [name, load] of modules) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  process.stderr.write(`running ${name} …\n`);
  rows.push(...(await (await load()).run()));
}
printRows(rows);
