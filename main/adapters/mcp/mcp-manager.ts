// Every MCP server of mcp.json as a tool source: connected in parallel, each with a visible state (docs/tools.md, "MCP servers").
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ToolLogger } from '../../../tools/sdk/types';
import { Emitter } from '../../core/emitter';
import type { ProcessGroups } from '../../process/process-group';
import type { Redactor } from '../../core/redactor';
import type { ToolRegistry } from '../../core/registry';
import type { McpConfigFile } from './config-types';
import type { SecretResolver } from './expand-vars';
import type { HttpClientTimeouts } from './http-timeouts';
import { httpTimeoutsFor } from './http-timeouts';
import { readMcpConfig } from './read-config';
import type { Backoff } from './backoff';
import { DEFAULT_BACKOFF } from './backoff';
import type { ServerConnection } from './server-connection';
import type { McpServerView } from './server-state';
import type { WithdrawnTool } from './server-tools';
import type { TrustedDefinitions } from './trusted-definitions';

/** What the manager needs; the secret store plugs in through `getSecret`. */
export interface McpManagerOptions {
  /** $AGENVOY_HOME/mcp.json. */
  configPath: string;
  registry: ToolRegistry;
  log: ToolLogger;
  /** Resolves `${secret:NAME}`; undefined means the secret is missing. */
  getSecret: SecretResolver;
  /** Secret values used in mcp.json are added here, so logs and errors never show them. */
  redactor?: Redactor;
  /** Where stdio servers' process groups are tracked (killed on quit). */
  groups?: ProcessGroups;
  /** For `$VAR` expansion (default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * Working directory of stdio servers; by default the folder of mcp.json, never the workspace: a repository's
   * planted module or package would run in place of the server mcp.json names (docs/security.md, "MCP servers start
   * next to mcp.json").
   */
  cwd?: string;
  /** HTTP client timeouts for a call limit (default: the limit plus a minute). */
  httpTimeouts?: (limitMs: number) => HttpClientTimeouts;
  backoff?: Partial<Backoff>;
  clientInfo?: { name: string; version: string };
  /** The definitions trusted tools are held to across runs (docs/security.md, "MCP trust"); none: within a run only. */
  pins?: TrustedDefinitions;
}

/** Why a definition could not be accepted: no such server or tool, or nothing of it to accept. */
export class AcceptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AcceptError';
  }
}

/** The MCP client side: reads mcp.json, runs one ServerConnection per server, reports their states. */
export class McpManager {
  private connections = new Map<string, ServerConnection>();
  private broken: McpServerView[] = [];
  private fileProblems: string[] = [];
  private readonly changes = new Emitter<McpServerView>();
  private unsubscribers: Array<() => void> = [];
  private started: Promise<void> | null = null;

  constructor(private readonly options: McpManagerOptions) {}

  /** Reads mcp.json and connects every enabled server in parallel; resolves once each is ready or failed. */
  start(): Promise<void> {
    this.started ??= this.startOnce();
    return this.started;
  }

  /** Resolves once the first start has settled (immediately when never started). */
  async settled(): Promise<void> {
    await (this.started ?? Promise.resolve());
  }

  /** Every configured server, in mcp.json order. */
  states(): McpServerView[] {
    return [...this.broken, ...[...this.connections.values()].map((connection) => connection.view())];
  }

  /** Problems of mcp.json as a whole (malformed JSON, unknown top-level keys). */
  problems(): string[] {
    return [...this.fileProblems];
  }

  /** Subscribes to state changes of any server; returns the unsubscribe. */
  onChange(listener: (view: McpServerView) => void): () => void {
    return this.changes.on(listener);
  }

  /** Connects `name` again now (after the user fixed its secret or restarted it). */
  async reconnect(name: string): Promise<void> {
    const connection = this.connections.get(name);
    if (!connection) throw new Error(`no MCP server named "${name}" in ${this.options.configPath}`);
    await connection.reconnect();
  }

  /** The trusted tools of `name` that ask on every call because their definition changed since it was trusted. */
  withdrawn(name: string): WithdrawnTool[] {
    return this.connection(name).tools.withdrawn();
  }

  /**
   * Trusts the definitions of `name`'s withdrawn tools that the person read: `shown` maps each tool to the id of the
   * definition they were shown (its hash, or its first 16 or more hex digits: `agenvoy mcp changed` prints them). What
   * `shown` does not name is not accepted; a tool that is not withdrawn, a damaged record, or a definition the server
   * changed again since it was shown refuses the whole accept. Resolves to what it accepted.
   */
  async accept(name: string, shown: ReadonlyMap<string, string>): Promise<WithdrawnTool[]> {
    const { pins } = this.options;
    if (!pins) throw new AcceptError('this app keeps no record of trusted definitions');
    const connection = this.connection(name);
    const withdrawn = connection.tools.withdrawn();
    const unknown = [...shown.keys()].filter((tool) => !withdrawn.some((entry) => entry.tool === tool));
    if (unknown.length > 0)
      throw new AcceptError(
        `${unknown.map((tool) => JSON.stringify(tool)).join(', ')} of "${name}" ${unknown.length === 1 ? 'is' : 'are'} not a trusted tool that asks because of its definition`,
      );
    const chosen = withdrawn.filter((entry) => shown.has(entry.tool));
    if (chosen.length === 0) throw new AcceptError(`no tool of "${name}" was named to accept`);
    // Only a changed definition is taken: a damaged record is the person's to fix first, and a definition the record
    // cannot take (past a bound, or its write failed) would be trusted for this run only.
    const other = chosen.find((entry) => entry.kind !== 'changed');
    if (other) throw new AcceptError(other.reason);
    const moved = chosen.filter((entry) => !sameDefinition(shown.get(entry.tool), entry.now.definition));
    if (moved.length > 0)
      throw new AcceptError(
        `${moved.map((entry) => JSON.stringify(entry.tool)).join(', ')} of "${name}" ${moved.length === 1 ? 'is' : 'are'} not the definition you were shown (changed since, or a wrong id): nothing was accepted`,
      );
    try {
      await pins.accept(
        name,
        chosen.map((entry) => ({ ...entry.now, origin: 'accepted', pinnedAt: new Date().toISOString() })),
      );
    } catch (error) {
      // The record refused the write (full, or a name it cannot hold): said as the accept's own error.
      throw new AcceptError(`nothing was accepted: ${(error as Error).message}`);
    }
    await connection.retrust();
    return chosen;
  }

  private connection(name: string): ServerConnection {
    const connection = this.connections.get(name);
    if (!connection)
      throw new AcceptError(`no connected MCP server named "${name}" in ${this.options.configPath}`);
    return connection;
  }

  /** The live stdio pid of `name`, if any. */
  pid(name: string): number | null {
    return this.connections.get(name)?.pid ?? null;
  }

  /** The live SDK client of `name` while it is ready (diagnostics, the benchmark's reference path). */
  client(name: string): Client | null {
    return this.connections.get(name)?.client ?? null;
  }

  /** Closes every session, kills every stdio server and unregisters every MCP tool. */
  async stop(): Promise<void> {
    // Stopping aborts connection attempts still under way, so start() settles at once.
    await Promise.allSettled([...this.connections.values()].map((connection) => connection.stop()));
    await this.started?.catch(() => {});
    await Promise.allSettled([...this.connections.values()].map((connection) => connection.stop()));
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
    this.connections.clear();
    this.broken = [];
    this.started = null;
  }

  private async startOnce(): Promise<void> {
    const file = await readMcpConfig(this.options.configPath);
    this.broken = [];
    // The SDK and the transports load with the first server to connect: a host without MCP servers never pays for
    // them (docs/hosts.md, "Fast start").
    const connections = file.servers.some((entry) => entry.ok) ? await import('./server-connection') : null;
    this.load(file, connections?.ServerConnection ?? null);
    await Promise.allSettled([...this.connections.values()].map((connection) => connection.start()));
  }

  private load(file: McpConfigFile, Connection: typeof ServerConnection | null): void {
    const { log } = this.options;
    this.fileProblems = [...(file.error ? [file.error] : []), ...file.warnings];
    if (file.error) log.error('mcp.json not loaded', { file: file.file, error: file.error });
    for (const warning of file.warnings) log.warn('mcp.json warning', { warning });
    const backoff = { ...DEFAULT_BACKOFF, ...this.options.backoff };
    for (const entry of file.servers) {
      for (const warning of entry.warnings) log.warn('mcp.json warning', { warning });
      if (!entry.ok) {
        // A broken entry fails alone; the other servers still start.
        const view: McpServerView = {
          name: entry.name,
          endpoint: null,
          state: entry.disabled ? { status: 'disabled' } : { status: 'failed', reason: entry.reason },
          tools: [],
          warnings: entry.disabled ? [...entry.warnings, entry.reason] : entry.warnings,
          changed: [],
        };
        if (!entry.disabled) log.error('mcp server not loaded', { server: entry.name, reason: entry.reason });
        this.broken.push(view);
        this.changes.emit(view);
        continue;
      }
      if (!Connection) continue;
      const connection = new Connection(
        entry.config,
        {
          registry: this.options.registry,
          log,
          getSecret: this.options.getSecret,
          env: this.options.env ?? process.env,
          cwd: this.options.cwd ?? path.dirname(this.options.configPath),
          groups: this.options.groups,
          onSecret: (name, value) => this.options.redactor?.add(name, value),
          httpTimeouts: this.options.httpTimeouts ?? httpTimeoutsFor,
          backoff,
          ...(this.options.pins ? { pins: this.options.pins } : {}),
          redact: (text) => this.options.redactor?.redact(text) ?? text,
          ...(this.options.redactor ? { redaction: this.options.redactor } : {}),
          clientInfo: this.options.clientInfo ?? { name: 'agenvoy-desktop', version: '0.1.0' },
        },
        entry.warnings,
      );
      this.unsubscribers.push(connection.onChange((view) => this.changes.emit(view)));
      this.connections.set(entry.config.name, connection);
    }
  }
}

// An id names a definition when it is its hash or a prefix of at least 16 hex digits (64 bits: no server finds a
// second definition with the same prefix).
function sameDefinition(id: string | undefined, definition: string): boolean {
  return id !== undefined && /^[0-9a-f]{16,}$/.test(id) && definition.startsWith(id);
}
