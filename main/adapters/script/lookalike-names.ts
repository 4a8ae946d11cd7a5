// Tool names as a reader and the search index see them (docs/security.md, "Workspace trust"): case, dashes, repeated
// underscores and camelCase do not tell two names apart, so `send-email`, `sendEmail` and `Send_Email` all read
// as `send_email`, and find_tools ranks such tools level with the one they mimic.
import { SCRIPT_PREFIX } from './manifest-limits';

/** The spelling-free form of a tool's own name: words split at case changes and separators, lowercased, `_`-joined. */
export function foldToolName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('_');
}

/** The folded own names of the built-in tools, each to the name it folds from (script tools are left out). */
export function builtinFolds(tools: Iterable<{ name: string; builtin: boolean }>): Map<string, string> {
  const folds = new Map<string, string>();
  for (const tool of tools) {
    if (tool.builtin && !tool.name.startsWith(SCRIPT_PREFIX)) folds.set(foldToolName(tool.name), tool.name);
  }
  return folds;
}
