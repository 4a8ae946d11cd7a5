// Lazy tool exposure (docs/tools.md, "Tool discovery"): full schemas for the fixed set and the chat's loaded tools; every other tool by name only.
import { RUN_TOOL_DESCRIPTION } from '../../tools/builtin/run-tool';
import type { LoadedSchemas } from '../core/loaded-schemas';
import { FIXED_TOOLS } from '../core/loaded-schemas';
import type { RegisteredTool, ToolRegistry } from '../core/registry';
import type { ToolDeclaration } from '../store/transcript';

/** About how many characters of names run_tool's description may list. */
export const NAME_BUDGET = 4000;

/** Which tools this host offers to the model (e.g. no background tools headless). */
export type ToolFilter = (tool: RegisteredTool) => boolean;

/** The tool declarations of one request, in a stable order: fixed set, then loaded schemas in load order. */
export function toolDeclarations(
  registry: ToolRegistry,
  schemas: LoadedSchemas,
  chatId: string,
  offered: ToolFilter = () => true,
  budget = NAME_BUDGET,
): ToolDeclaration[] {
  const fixed = FIXED_TOOLS.map((name) => registry.get(name)).filter(
    (t): t is RegisteredTool => !!t && offered(t),
  );
  const loaded = schemas
    .loaded(chatId)
    .map((name) => registry.get(name))
    .filter((t): t is RegisteredTool => !!t && offered(t) && !FIXED_TOOLS.includes(t.spec.name as never));
  const shown = new Set([...fixed, ...loaded].map((t) => t.spec.name));
  const others = registry.all().filter((t) => offered(t) && !shown.has(t.spec.name));
  return [...fixed, ...loaded].map((tool) => ({
    name: tool.spec.name,
    description:
      tool.spec.name === 'run_tool'
        ? `${RUN_TOOL_DESCRIPTION}\n${nameList(others, budget)}`
        : tool.spec.description,
    parameters: tool.spec.parameters,
  }));
}

/** `Other tools: a, b, …` within the budget, the rest summarised by source with counts. */
export function nameList(tools: RegisteredTool[], budget = NAME_BUDGET): string {
  if (tools.length === 0) return 'Other tools: none.';
  const names: string[] = [];
  let used = 0;
  let cut = tools.length;
  for (const [i, tool] of tools.entries()) {
    const cost = tool.spec.name.length + 2;
    if (used + cost > budget) {
      cut = i;
      break;
    }
    names.push(tool.spec.name);
    used += cost;
  }
  const rest = tools.slice(cut);
  return `Other tools: ${names.join(', ')}${rest.length > 0 ? `, ${summarise(rest)}` : ''}.`;
}

function summarise(rest: RegisteredTool[]): string {
  const servers = new Set<string>();
  let scripts = 0;
  let builtins = 0;
  for (const tool of rest) {
    const source = tool.spec.source;
    switch (source.kind) {
      case 'mcp':
        servers.add(source.server);
        break;
      case 'script':
        scripts++;
        break;
      case 'builtin':
        builtins++;
        break;
    }
  }
  const parts: string[] = [];
  const mcp = rest.length - scripts - builtins;
  if (mcp > 0)
    parts.push(`mcp servers ${[...servers].sort().slice(0, 6).join(', ')}${servers.size > 6 ? ', …' : ''}`);
  if (scripts > 0) parts.push('script folders');
  if (builtins > 0) parts.push('built-ins');
  return `and ${rest.length.toLocaleString('en-US')} more from ${parts.join('; ')}: use find_tools`;
}
