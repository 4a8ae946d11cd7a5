// The registry entries of one server's tools, kept in step with its tools/list: new ones added, changed ones
// registered again (a changed definition hash voids approval rules: docs/security.md, "Decisions and rules"), vanished ones removed. A tool whose
// definition is bad is registered as broken with the reason; one without a usable name is a warning of the server.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolLogger, ToolSpec } from '../../../tools/sdk/types';
import type { ToolRegistry } from '../../core/registry';
import { RegistrationError } from '../../core/registry';
import { shortHash, stableStringify } from '../../core/stable-json';
import type { ToolBroken } from '../../core/tool-broken';
import type { DefinitionPin } from './definition-pins';
import type { RejectedTool, ToolListing } from './list-tools';
import { mcpToolNames } from './tool-names';
import type { McpToolDeps } from './tool-spec';
import { scrubbedDefinition } from './scrubbed-definition';
import { mcpToolSpec } from './tool-spec';
import type { WithdrawnTool } from './trust-judge';
import { TrustJudge } from './trust-judge';
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

export type { WithdrawnTool } from './trust-judge';

// One tool of the list as this sync registers it: usable, or broken with the step and reason.
type Entry =
  { remote: string; tool: Tool; broken: null } | { remote: string; tool: null; broken: ToolBroken };

/** The registered tools of one MCP server. */
export class ServerTools {
  private readonly entries = new Map<string, { fingerprint: string; undo: () => void }>();
  private refusedNow: string[] = [];
  /** Whether the trusted tools are still the ones the person trusted (docs/security.md, "MCP trust"). */
  readonly judge: TrustJudge;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly deps: McpToolDeps,
    private readonly redact: (text: string) => string = (text) => text,
  ) {
    this.judge = new TrustJudge(deps.server, deps.trust, redact);
  }

  /** The registered names, sorted. */
  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** Reasons of the tools the last sync could not register. */
  refused(): string[] {
    return [...this.refusedNow];
  }

  /** The trusted tools whose trust is withdrawn since the last sync. */
  withdrawn(): WithdrawnTool[] {
    return this.judge.withdrawn();
  }

  /** The trusted tools (names on the server) that ask because their definition changed since it was recorded. */
  changed(): string[] {
    return this.judge
      .withdrawn()
      .filter((entry) => entry.kind === 'changed')
      .map((entry) => entry.tool);
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
    // Registered (and so shown to the model) with known secrets scrubbed; judged as the server wrote it, and only
    // what can be registered at all is judged.
    const shownAs = new Map<Tool, Tool | null>();
    for (const tool of tools)
      if (tool.execution?.taskSupport !== 'required' && this.redact(tool.name) === tool.name)
        shownAs.set(tool, scrubbedDefinition(tool, this.redact));
    const judged = this.judge.judge(
      tools.filter((tool) => shownAs.get(tool)),
      pinned,
    );
    change.firstSeen = judged.firstSeen;
    for (const tool of tools) {
      // A name is shown everywhere a tool is (the model's tool list, the panel, the record): one that holds the value
      // of a secret, such as one the server was given, is not registered (docs/secrets.md).
      if (this.redact(tool.name) !== tool.name) {
        change.refused.push(`a tool not registered: its name holds the value of a stored secret`);
        continue;
      }
      if (tool.execution?.taskSupport === 'required') {
        change.refused.push(
          `tool "${tool.name}" not registered: it needs task-based execution, which this host does not support`,
        );
        continue;
      }
      const shown = shownAs.get(tool);
      if (!shown) {
        change.refused.push(
          `tool ${JSON.stringify(tool.name)} not registered: a parameter's name holds the value of a stored secret`,
        );
        continue;
      }
      entries.push({ remote: tool.name, tool: shown, broken: null });
      const withdrawn = judged.withdrawn.get(tool.name);
      if (withdrawn) change.refused.push(withdrawn.reason);
    }
    for (const item of rejected) {
      if (item.name === null)
        change.refused.push(`tools/list item ${item.index} not registered: ${item.reason}`);
      else if (this.redact(item.name) !== item.name)
        change.refused.push(
          `tools/list item ${item.index} not registered: its name holds the value of a stored secret`,
        );
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
    this.judge.clear();
    return removed;
  }

  private apply(name: string, entry: Entry, change: ToolSetChange): void {
    // A bounded fingerprint: the schema was checked against the limits, or the tool is broken and has none.
    // Trust withdrawn or given back registers the tool again with its new flags.
    const withdrawn = entry.tool !== null && this.judge.isWithdrawn(entry.tool.name);
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

  // What a tool the list set aside is shown as: its name and server, nothing read from the bad definition.
  private brokenSpec(name: string, remote: string): ToolSpec {
    return {
      ...mcpToolSpec({ name: remote, inputSchema: { type: 'object' } } as Tool, name, this.deps),
      description: '',
    };
  }
}

/** What a sync changed, in the log: each tool refused or broken, and the registered names (no definition). */
export function logToolChange(
  log: ToolLogger,
  server: string,
  change: ToolSetChange,
  registry: ToolRegistry,
): void {
  for (const reason of change.refused) log.warn('mcp tool not registered or not trusted', { server, reason });
  for (const name of change.broken)
    log.warn('mcp tool broken', { server, name, ...registry.entry(name)?.broken });
  if (change.added.length + change.updated.length + change.removed.length > 0) {
    const { added, updated, removed } = change;
    log.info('mcp tools registered', {
      server,
      added,
      updated,
      removed,
      refused: change.refused.length,
      broken: change.broken.length,
    });
  }
}
