// The registry entries of one server's tools, kept in step with its tools/list: new ones added, changed ones
// registered again (a changed definition hash voids approval rules: docs/security.md, "Decisions and rules"), vanished ones removed. A tool whose
// definition is bad is registered as broken with the reason; one without a usable name is a warning of the server.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSpec } from '../../../tools/sdk/types';
import type { ToolRegistry } from '../../core/registry';
import { RegistrationError } from '../../core/registry';
import { shortHash, stableStringify } from '../../core/stable-json';
import type { ToolBroken } from '../../core/tool-broken';
import type { DefinitionPin } from './definition-pins';
import { definitionHash, describeChange, pinOf } from './definition-pins';
import type { RejectedTool, ToolListing } from './list-tools';
import { mcpToolNames } from './tool-names';
import type { McpToolDeps } from './tool-spec';
import { isTrusted, mcpToolSpec } from './tool-spec';
import type { ServerPins } from './trusted-definitions';

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
  /** Trusted tools met for the first time: their definitions, to be recorded (trusted-definitions.ts). */
  firstSeen: DefinitionPin[];
}

/** A trusted tool whose definition is not the pinned one: it asks on every call until the person accepts it. */
export interface WithdrawnTool {
  /** Its name on the server. */
  tool: string;
  /** Its definition now, as accepting it would pin it. */
  now: DefinitionPin;
  /** The pinned one (null when the record of pins is damaged). */
  pinned: DefinitionPin | null;
  /** Why, in words (also among the server's warnings). */
  reason: string;
}

// One tool of the list as this sync registers it: usable, or broken with the step and reason.
type Entry =
  { remote: string; tool: Tool; broken: null } | { remote: string; tool: null; broken: ToolBroken };

/** The registered tools of one MCP server. */
export class ServerTools {
  private readonly entries = new Map<string, { fingerprint: string; undo: () => void }>();
  private refusedNow: string[] = [];
  // The definition each trusted tool had when this process first registered it, for a tool the record on disk has none
  // of (not written yet, or no record kept: tests and `mcp serve`). docs/security.md, "MCP trust".
  private readonly trustedAs = new Map<string, DefinitionPin>();
  private withdrawnNow = new Map<string, WithdrawnTool>();

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

  /** Whether `pinned` now covers a tool whose trust is withdrawn (accepted elsewhere, or the record was repaired). */
  acceptedIn(pinned: ServerPins | undefined): boolean {
    if (!pinned || pinned.problem) return false;
    for (const entry of this.withdrawnNow.values())
      if (entry.pinned === null || pinned.pins.get(entry.tool)?.definition === entry.now.definition)
        return true;
    return false;
  }

  /** The trusted tools whose trust is withdrawn since the last sync (their definition is not the pinned one). */
  withdrawn(): WithdrawnTool[] {
    return [...this.withdrawnNow.values()];
  }

  /**
   * Makes the registry hold exactly the listed tools for this server (a plain array counts as all good). `pinned`: the
   * definitions recorded on disk for this server's trusted tools (none kept: this process's first sight decides).
   */
  sync(listing: ToolListing | readonly Tool[], pinned?: ServerPins): ToolSetChange {
    const { tools, rejected } = Array.isArray(listing)
      ? { tools: listing as readonly Tool[], rejected: [] as RejectedTool[] }
      : (listing as ToolListing);
    const change: ToolSetChange = {
      added: [],
      updated: [],
      removed: [],
      refused: [],
      broken: [],
      firstSeen: [],
    };
    const entries: Entry[] = [];
    this.withdrawnNow = new Map();
    for (const tool of tools) {
      if (tool.execution?.taskSupport === 'required') {
        change.refused.push(
          `tool "${tool.name}" not registered: it needs task-based execution, which this host does not support`,
        );
        continue;
      }
      entries.push({ remote: tool.name, tool, broken: null });
      const withdrawn = this.judgeTrust(tool, pinned, change);
      if (withdrawn) {
        this.withdrawnNow.set(tool.name, withdrawn);
        change.refused.push(withdrawn.reason);
      }
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
    this.withdrawnNow = new Map();
    return removed;
  }

  private apply(name: string, entry: Entry, change: ToolSetChange): void {
    // A bounded fingerprint: the schema was checked against the limits, or the tool is broken and has none.
    // Trust withdrawn or given back registers the tool again with its new flags.
    const withdrawn = entry.tool !== null && this.withdrawnNow.has(entry.tool.name);
    const fingerprint = entry.tool
      ? `${shortHash(stableStringify(entry.tool), 32)}${withdrawn ? ':withdrawn' : ''}`
      : `broken:${entry.broken.step}:${entry.broken.reason}`;
    const known = this.entries.get(name);
    if (known?.fingerprint === fingerprint) return;
    try {
      // Registering the same name again replaces the entry in place, so it never disappears meanwhile.
      const deps: McpToolDeps = withdrawn ? { ...this.deps, trust: NO_TRUST } : this.deps;
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
   * Whether `tool`'s trust is withdrawn. mcp.json trusts a tool by its name, or by the server's own read-only hint; the
   * trust covers the definition the app first met it trusted with, or the one the person accepted since. A server that
   * swaps a trusted "dictionary lookup" for "upload any text to a public pastebin" keeps the name (tools/list_changed,
   * or a new version between two runs of the app), so the changed tool asks on every call until its definition is the
   * pinned one again or the person accepts the new one. A damaged record withdraws every trusted tool's trust.
   */
  private judgeTrust(
    tool: Tool,
    pinned: ServerPins | undefined,
    change: ToolSetChange,
  ): WithdrawnTool | null {
    if (!isTrusted(this.deps.trust, tool.name, tool.annotations?.readOnlyHint === true)) return null;
    const quoted = JSON.stringify(tool.name);
    if (pinned?.problem) {
      const reason = `tool ${quoted} is not trusted now: ${pinned.problem}`;
      return { tool: tool.name, now: pinOf(tool, 'accepted'), pinned: null, reason };
    }
    const pin = pinned?.pins.get(tool.name) ?? this.trustedAs.get(tool.name);
    if (pin === undefined) {
      const first = pinOf(tool, 'first-seen');
      this.trustedAs.set(tool.name, first);
      change.firstSeen.push(first);
      return null;
    }
    if (pin.definition === definitionHash(tool)) return null;
    const now = pinOf(tool, 'accepted');
    const since = pin.pinnedAt.slice(0, 16).replace('T', ' ');
    const reason =
      `tool ${quoted} is no longer trusted: the server changed ${describeChange(pin, now)} since it was trusted ` +
      `(${since} UTC), so it asks on every call until its definition is the trusted one again or you accept the new ` +
      `one (agenvoy mcp accept ${JSON.stringify(this.deps.server)} ${quoted}, or Accept in the Tools panel)`;
    return { tool: tool.name, now, pinned: pin, reason };
  }

  // What a tool the list set aside is shown as: its name and server, nothing read from the bad definition.
  private brokenSpec(name: string, remote: string): ToolSpec {
    return {
      ...mcpToolSpec({ name: remote, inputSchema: { type: 'object' } } as Tool, name, this.deps),
      description: '',
    };
  }
}
