// Collects design-rule findings for `agenvoy tools lint`: built-ins plus the script tools of a folder.
import type { Core } from '../app';
import { ToolRegistry } from '../core/registry';
import { lintTool } from '../core/lint/lint-tool';
import { ScriptToolSource } from '../adapters/script/script-tool-source';
import type { CliIo } from './io';

/** One finding in the JSON shape of `tools lint --json`. */
export interface LintRow {
  tool: string;
  source: 'builtin' | 'script' | 'mcp';
  code: string;
  level: 'error' | 'guidance';
  message: string;
}

/** Findings of every built-in, and of the script tools under `dir` (default: the core's configured folders). */
export async function lintFindings(core: Core, dir: string | null): Promise<LintRow[]> {
  const rows: LintRow[] = [];
  const builtins = core.registry.all().filter((t) => t.spec.source.kind === 'builtin');
  let scripts = core.registry.all().filter((t) => t.spec.source.kind === 'script');
  let problems = core.scripts.problems();
  if (dir) {
    // A scratch registry holding the built-ins, so name collisions are still reported.
    const registry = new ToolRegistry(lintTool);
    for (const tool of builtins) registry.register(tool.spec);
    const source = new ScriptToolSource({
      registry,
      dirs: [{ dir, scope: 'global' }],
      log: core.log,
      groups: core.groups,
      watch: false,
    });
    await source.start();
    scripts = registry.all().filter((t) => t.spec.source.kind === 'script');
    problems = source.problems();
    source.stop();
  }
  for (const tool of [...builtins, ...scripts]) {
    for (const f of tool.lint) rows.push({ tool: tool.spec.name, source: tool.spec.source.kind, ...f });
  }
  for (const problem of problems) {
    rows.push({
      tool: problem.dir,
      source: 'script',
      code: 'LOAD_ERROR',
      level: 'error',
      message: `${problem.file}: ${problem.reason}`,
    });
  }
  return rows;
}

/** Prints findings as JSON or as one line each. */
export function printFindings(rows: LintRow[], json: boolean, io: CliIo): void {
  if (json) {
    io.stdout(JSON.stringify(rows, null, 2) + '\n');
    return;
  }
  if (rows.length === 0) io.stdout('no findings\n');
  for (const r of rows) io.stdout(`${r.level.toUpperCase().padEnd(8)} ${r.tool}  ${r.code}  ${r.message}\n`);
}
