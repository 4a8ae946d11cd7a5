// Tool names as a reader and the search index see them (docs/security.md, "Workspace trust"): case, dashes, repeated
// underscores and camelCase do not tell two names apart, so `send-email`, `sendEmail` and `Send_Email` all read
// as `send_email`, and find_tools ranks such tools level with the one they mimic. Nor do letters a reader confuses:
// `send_emaIl` (a capital i), `send_emai1` (a one), `rn` for `m`, `0` for `o`, `vv` for `w`.
import { SCRIPT_PREFIX } from './manifest-limits';

/** The spelling-free form of a tool's own name: separators and case dropped, confusable letters made one. */
export function foldToolName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/[il1]/g, 'l')
    .replace(/0/g, 'o');
}

/** The folded own names of the built-in tools, each to the name it folds from (script tools are left out). */
export function builtinFolds(tools: Iterable<{ name: string; builtin: boolean }>): Map<string, string> {
  const folds = new Map<string, string>();
  for (const tool of tools) {
    if (tool.builtin && !tool.name.startsWith(SCRIPT_PREFIX)) folds.set(foldToolName(tool.name), tool.name);
  }
  return folds;
}
