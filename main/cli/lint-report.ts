// Collects design-rule findings for `agenvoy tools lint`: built-ins plus the script tools of a folder.
import type { Core } from '../app';
import { ToolRegistry } from '../core/registry';
import { lintTool } from '../core/lint/lint-tool';
import { ScriptToolSource } from '../adapters/script/script-tool-source';
import type { ToolBroken } from '../core/tool-broken';
import { ArgumentValidator } from '../core/validate';
import type { CliIo } from './io';
import { terminalText } from './terminal-text';

/** One finding in the JSON shape of `tools lint --json`. */
export interface LintRow {
  tool: string;
  source: 'builtin' | 'script' | 'mcp';
  code: string;
  level: 'error' | 'guidance';
  message: string;
}

/**
 * Findings of every built-in, and of the script tools under `dir` or else of the core's script folders and MCP
 * servers (docs/tools.md, "Design rules"): the design rules (built-ins strictly), broken tools with their step, and what the loader
 * ignored (unknown tool.json keys).
 */
export async function lintFindings(core: Core, dir: string | null): Promise<LintRow[]> {
  const rows: LintRow[] = [];
  const builtins = core.registry.listed().filter((t) => t.spec.source.kind === 'builtin');
  let others = core.registry.listed().filter((t) => t.spec.source.kind !== 'builtin');
  let problems = core.scripts.problems();
  if (dir) {
    // A scratch registry holding the built-ins, so name collisions are still reported; it compiles schemas as
    // the app's registry does, so a schema the app would refuse is reported here too.
    const validator = new ArgumentValidator();
    const registry = new ToolRegistry(lintTool, { checkSchema: (schema) => validator.check(schema) });
    for (const tool of builtins) registry.register(tool.spec);
    const source = new ScriptToolSource({
      registry,
      dirs: [{ dir, scope: 'global' }],
      log: core.log,
      groups: core.groups,
      watch: false,
    });
    await source.start();
    others = registry.listed().filter((t) => t.spec.source.kind === 'script');
    problems = source.problems();
    source.stop();
  }
  for (const tool of [...builtins, ...others]) {
    const row = { tool: tool.spec.name, source: tool.spec.source.kind };
    if (tool.broken) {
      rows.push({ ...row, code: 'BROKEN', level: 'error', message: brokenText(tool.broken) });
    }
    for (const warning of tool.warnings ?? []) {
      rows.push({ ...row, code: 'LOAD_WARNING', level: 'guidance', message: warning });
    }
    for (const f of tool.lint) rows.push({ ...row, ...f });
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
  // Names, files and messages quote what a repository or a server wrote (terminal-text.ts).
  for (const r of rows)
    io.stdout(terminalText(`${r.level.toUpperCase().padEnd(8)} ${r.tool}  ${r.code}  ${r.message}`) + '\n');
}

// A broken tool's row: the step that failed and why, and that it is listed but never offered or run.
function brokenText(broken: ToolBroken): string {
  return `broken at the ${broken.step} step: ${broken.reason}; it is listed but never offered, and calls to it fail`;
}
