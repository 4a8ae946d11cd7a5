// The registry entries of one server's tools, kept in step with its tools/list: new ones added, changed ones
// registered again (a changed definition hash voids approval rules: docs/security.md, "Decisions and rules"), vanished ones removed. A tool whose
// definition is bad is registered as broken with the reason; one without a usable name is a warning of the server.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSpec } from '../../../tools/sdk/types';
import type { ToolRegistry } from '../../core/registry';
import { RegistrationError } from '../../core/registry';
import { shortHash, stableStringify } from '../../core/stable-json';
import type { ToolBroken } from '../../core/tool-broken';
import type { RejectedTool, ToolListing } from './list-tools';
import { mcpToolNames } from './tool-names';
import type { McpToolDeps } from './tool-spec';
import { isTrusted, mcpToolSpec } from './tool-spec';

const NO_TRUST: McpToolDeps['trust'] = { kind: 'none' };

/** What one sync changed. */
export interface ToolSetChange {
  added: string[];
  updated: string[];
  removed: string[];
  /** Tools that could not be registered (a name another source holds, no usable name), with the reason. */
  refused: string[];
  /** Tools registered as broken (their definition failed a check), by registered name. */
  broken: string[];
}

// One tool of the list as this sync registers it: usable, or broken with the step and reason.
type Entry =
  { remote: string; tool: Tool; broken: null } | { remote: string; tool: null; broken: ToolBroken };

/** The registered tools of one MCP server. */
export class ServerTools {
  private readonly entries = new Map<string, { fingerprint: string; undo: () => void }>();
  private refusedNow: string[] = [];
  // The definition each trusted tool had when this process first registered it (docs/security.md, "MCP trust").
  private readonly trustedAs = new Map<string, string>();

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

  /** Makes the registry hold exactly the listed tools for this server (a plain array counts as all good). */
  sync(listing: ToolListing | readonly Tool[]): ToolSetChange {
    const { tools, rejected } = Array.isArray(listing)
      ? { tools: listing as readonly Tool[], rejected: [] as RejectedTool[] }
      : (listing as ToolListing);
    const change: ToolSetChange = { added: [], updated: [], removed: [], refused: [], broken: [] };
    const entries: Entry[] = [];
    for (const tool of tools) {
      if (tool.execution?.taskSupport === 'required') {
        change.refused.push(
          `tool "${tool.name}" not registered: it needs task-based execution, which this host does not support`,
        );
        continue;
      }
      entries.push({ remote: tool.name, tool, broken: null });
      const withdrawn = this.trustWithdrawn(tool);
      if (withdrawn) change.refused.push(withdrawn);
    }
    for (const item of rejected) {
      if (item.name === null)
        change.refused.push(`tools/list item ${item.index} not registered: ${item.reason}`);
      else entries.push({ remote: item.name, tool: null, broken: { step: item.step, reason: item.reason } });
    }
    const names = mcpToolNames(
      this.deps.server,
      entries.map((entry) => entry.remote),
    );
    const wanted = new Set<string>();
    for (const entry of entries) {
      const name = names.get(entry.remote) as string;
      if (wanted.has(name)) continue;
      wanted.add(name);
      this.apply(name, entry, change);
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

  private apply(name: string, entry: Entry, change: ToolSetChange): void {
    // A bounded fingerprint: the schema was checked against the limits, or the tool is broken and has none.
    const fingerprint = entry.tool
      ? shortHash(stableStringify(entry.tool), 32)
      : `broken:${entry.broken.step}:${entry.broken.reason}`;
    const known = this.entries.get(name);
    if (known?.fingerprint === fingerprint) return;
    try {
      // Registering the same name again replaces the entry in place, so it never disappears meanwhile.
      const deps: McpToolDeps =
        entry.tool && this.trustWithdrawn(entry.tool) ? { ...this.deps, trust: NO_TRUST } : this.deps;
      const undo = entry.tool
        ? this.registry.register(mcpToolSpec(entry.tool, name, deps))
        : this.registry.register(this.brokenSpec(name, entry.remote), { broken: entry.broken });
      this.entries.set(name, { fingerprint, undo });
      (known ? change.updated : change.added).push(name);
      if (this.registry.entry(name)?.broken) change.broken.push(name);
    } catch (error) {
      // A name another source holds; anything else a bad definition could provoke is refused the same way.
      const reason = error instanceof RegistrationError ? error.message : (error as Error).message;
      change.refused.push(`tool "${entry.remote}" not registered: ${reason}`);
    }
  }

  /**
   * Why `tool`'s trust is withdrawn, or null. mcp.json trusts a tool by its name, or by the server's own read-only hint;
   * the trust covers the definition the tool had when this process first registered it trusted. A server that swaps a
   * trusted "dictionary lookup" for "upload any text to a public pastebin" (tools/list_changed) keeps the name, so the
   * changed tool asks on every call instead, until its definition is the first one again or the app restarts.
   */
  private trustWithdrawn(tool: Tool): string | null {
    if (!isTrusted(this.deps.trust, tool.name, tool.annotations?.readOnlyHint === true)) return null;
    const { description, title, inputSchema, outputSchema, annotations } = tool;
    const definition = shortHash(
      stableStringify({ description, title, inputSchema, outputSchema, annotations }),
      32,
    );
    const first = this.trustedAs.get(tool.name);
    if (first === undefined) this.trustedAs.set(tool.name, definition);
    if (first === undefined || first === definition) return null;
    return `tool "${tool.name}" is no longer trusted: the server changed its definition (description, parameters or annotations) since the app first trusted it, so it asks on every call until the app restarts`;
  }

  // What a tool the list set aside is shown as: its name and server, nothing read from the bad definition.
  private brokenSpec(name: string, remote: string): ToolSpec {
    return {
      ...mcpToolSpec({ name: remote, inputSchema: { type: 'object' } } as Tool, name, this.deps),
      description: '',
    };
  }
}
