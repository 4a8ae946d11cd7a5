// The registry entries of one server's tools, kept in step with its tools/list: new ones added, changed ones
// registered again (a changed definition hash voids approval rules, SPEC §8), vanished ones removed.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../../core/registry';
import { RegistrationError } from '../../core/registry';
import { stableStringify } from '../../core/stable-json';
import { mcpToolNames } from './tool-names';
import type { McpToolDeps } from './tool-spec';
import { mcpToolSpec } from './tool-spec';

/** What one sync changed. */
export interface ToolSetChange {
  added: string[];
  updated: string[];
  removed: string[];
  /** Tools that could not be registered (a name another source holds), with the reason. */
  refused: string[];
}

/** The registered tools of one MCP server. */
export class ServerTools {
  private readonly entries = new Map<string, { fingerprint: string; undo: () => void }>();
  private refusedNow: string[] = [];

  constructor(
    private readonly registry: ToolRegistry,
    private readonly deps: McpToolDeps,
  ) {}

  /** The registered names, sorted. */
  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** Reasons of the tools the last sync could not register. */
  refused(): string[] {
    return [...this.refusedNow];
  }

  /** Makes the registry hold exactly `tools` for this server. */
  sync(tools: readonly Tool[]): ToolSetChange {
    const change: ToolSetChange = { added: [], updated: [], removed: [], refused: [] };
    const names = mcpToolNames(
      this.deps.server,
      tools.map((tool) => tool.name),
    );
    const wanted = new Set<string>();
    for (const tool of tools) {
      if (tool.execution?.taskSupport === 'required') {
        change.refused.push(
          `tool "${tool.name}" not registered: it needs task-based execution, which this host does not support`,
        );
        continue;
      }
      const name = names.get(tool.name) as string;
      if (wanted.has(name)) continue;
      wanted.add(name);
      const fingerprint = stableStringify(tool);
      const entry = this.entries.get(name);
      if (entry?.fingerprint === fingerprint) continue;
      try {
        // Registering the same name again replaces the entry in place, so it never disappears meanwhile.
        const undo = this.registry.register(mcpToolSpec(tool, name, this.deps));
        this.entries.set(name, { fingerprint, undo });
        (entry ? change.updated : change.added).push(name);
      } catch (error) {
        if (!(error instanceof RegistrationError)) throw error;
        change.refused.push(`tool "${tool.name}" not registered: ${error.message}`);
      }
    }
    for (const [name, entry] of this.entries) {
      if (wanted.has(name)) continue;
      entry.undo();
      this.entries.delete(name);
      change.removed.push(name);
    }
    this.refusedNow = change.refused;
    return change;
  }

  /** Unregisters every tool of the server. */
  clear(): string[] {
    const removed = this.names();
    for (const entry of this.entries.values()) entry.undo();
    this.entries.clear();
    this.refusedNow = [];
    return removed;
  }
}
