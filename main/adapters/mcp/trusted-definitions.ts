// $AGENVOY_HOME/desktop/mcp-trusted-definitions.json (docs/security.md, "MCP trust"): the definition each trusted MCP
// tool had when the app first met it trusted, or the one the person accepted since. It outlives the app, so a server
// that swaps a trusted tool while the app is closed gains nothing by a restart. Read defensively: a damaged file
// withdraws every MCP tool's trust until it is fixed or removed, never grants it. Only the app writes it: a pin on first
// sight, and `accept` when the person takes a changed definition (`agenvoy mcp accept`, the Tools panel).
import path from 'node:path';
import { JsonFileStore } from '../../core/json-file-store';
import type { DefinitionPin } from './definition-pins';
import {
  MAX_DEFINITIONS_FILE_BYTES,
  MAX_PINNED_SERVERS,
  MAX_PINNED_TOOLS,
  recordProblem,
} from './definition-pins';

/** The file name, in $AGENVOY_HOME/desktop. */
export const DEFINITIONS_FILE = 'mcp-trusted-definitions.json';

/** The file: servers by name, each with its tools' pins (arrays, so no name a server picks can be a JS key). */
export interface DefinitionsFile {
  version: 1;
  servers: Array<{ server: string; tools: DefinitionPin[] }>;
}

/** One server's pins by tool name, and the problem that withdraws them all (a damaged file). */
export interface ServerPins {
  pins: ReadonlyMap<string, DefinitionPin>;
  problem: string | null;
  /** Why the record can take no pin of this server (it holds the most servers it can), or null. */
  full?: string | null;
}

/** The store of pinned definitions. */
export class TrustedDefinitions {
  private readonly store: JsonFileStore<DefinitionsFile>;

  constructor(readonly file: string) {
    this.store = new JsonFileStore(file, {
      empty: () => ({ version: 1, servers: [] }),
      // The parser (zod) loads with the first file there is to read (docs/hosts.md, "Fast start").
      parse: async (text, name) =>
        (await import('./trusted-definitions-file')).parseDefinitionsFile(text, name),
      maxBytes: MAX_DEFINITIONS_FILE_BYTES,
      noun: 'a file of trusted MCP definitions',
      damagedError: (problem) => new Error(`${problem}; fix or remove the file to accept definitions`),
    });
  }

  /** The store of `$AGENVOY_HOME/desktop/mcp-trusted-definitions.json`. */
  static inDesktop(desktopDir: string): TrustedDefinitions {
    return new TrustedDefinitions(path.join(desktopDir, DEFINITIONS_FILE));
  }

  /** The pins of `server` (read fresh when the file changed: the CLI's accept reaches a running app). */
  async forServer(server: string): Promise<ServerPins> {
    const state = await this.store.read();
    if (state.kind === 'damaged')
      return {
        pins: new Map(),
        problem:
          `${state.problem}; every trusted MCP tool asks on every call until it is fixed (removing it makes the ` +
          `definitions the servers have then count as the trusted ones)`,
      };
    const entry = state.file.servers.find((candidate) => candidate.server === server);
    const full =
      !entry && state.file.servers.length >= MAX_PINNED_SERVERS
        ? `the record already holds the most servers it can (${MAX_PINNED_SERVERS})`
        : null;
    return { pins: new Map((entry?.tools ?? []).map((pin) => [pin.tool, pin])), problem: null, full };
  }

  /** Records first-seen pins of tools the file has none for; a pin already there is never replaced by one. */
  record(server: string, pins: readonly DefinitionPin[]): Promise<void> {
    return this.change(server, pins, false);
  }

  /** Replaces the pins of these tools: the person accepted their definitions as they are now. */
  accept(server: string, pins: readonly DefinitionPin[]): Promise<void> {
    return this.change(server, pins, true);
  }

  // Never writes what this version would read as damaged: a pin or a file past the bounds is refused with the reason
  // (trust-judge.ts then trusts the tool for nothing), so one server cannot spoil the record of every other.
  private async change(server: string, pins: readonly DefinitionPin[], replace: boolean): Promise<void> {
    if (pins.length === 0) return;
    for (const pin of pins) {
      const problem = recordProblem(server, pin);
      if (problem) throw new Error(`cannot record ${JSON.stringify(pin.tool.slice(0, 80))}: ${problem}`);
    }
    const { parseDefinitionsFile } = await import('./trusted-definitions-file');
    await this.store.update((file) => {
      let entry = file.servers.find((candidate) => candidate.server === server);
      if (!entry) {
        if (file.servers.length >= MAX_PINNED_SERVERS)
          throw new Error(`${this.file} already holds the most servers it can (${MAX_PINNED_SERVERS})`);
        entry = { server, tools: [] };
        file.servers.push(entry);
      }
      for (const pin of pins) {
        const index = entry.tools.findIndex((known) => known.tool === pin.tool);
        if (index >= 0) {
          if (replace) entry.tools[index] = { ...pin };
        } else if (entry.tools.length < MAX_PINNED_TOOLS) entry.tools.push({ ...pin });
        else
          throw new Error(`the record already holds the most tools a server can have (${MAX_PINNED_TOOLS})`);
      }
      const text = JSON.stringify(file, null, 2) + '\n';
      if (Buffer.byteLength(text) > MAX_DEFINITIONS_FILE_BYTES)
        throw new Error(`the record would pass ${MAX_DEFINITIONS_FILE_BYTES / (1024 * 1024)} MiB`);
      const checked = parseDefinitionsFile(text, this.file);
      if (checked.kind === 'damaged') throw new Error(`the record would not read back: ${checked.problem}`);
    });
  }
}
