// One MCP server's life: connect within its timeout, register its tools, follow tools/list_changed, and when
// it crashes fail its in-flight calls at once, drop its tools and reconnect with backoff (docs/tools.md, "MCP servers").
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CredentialError, ToolError } from '../../../tools/sdk/types';
import { Emitter } from '../../core/emitter';
import type { ToolRegistry } from '../../core/registry';
import type { Backoff } from './backoff';
import { retryDelay } from './backoff';
import { describeError } from './call-errors';
import type { McpServerConfig } from './config-types';
import type { McpSession } from './connect';
import { isConnectionLost } from './connection-loss';
import { lateAnswerWarning } from './late-answers';
import { clipLogged, LogBudget } from './log-budget';
import type { ToolListing } from './list-tools';
import { listAllTools } from './list-tools';
import type { SessionDeps } from './open-session';
import { openSession } from './open-session';
import type { McpServerState, McpServerView } from './server-state';
import { describeState } from './server-state';
import { logToolChange, ServerTools } from './server-tools';
import type { ServerPins, TrustedDefinitions } from './trusted-definitions';
import { ConnectionPins } from './connection-pins';

/** What a connection needs from the manager. */
export interface ConnectionDeps extends SessionDeps {
  registry: ToolRegistry;
  onSecret?: (name: string, value: string) => void;
  backoff: Backoff;
  /** The definitions trusted tools are held to across runs (none: this process's first sight of each). */
  pins?: TrustedDefinitions;
  /** Scrubs known secrets from what is recorded and shown of a definition, and finds a tool name that holds one. */
  redact?: (text: string) => string;
}

/** A configured server and its live session. */
export class ServerConnection {
  private state: McpServerState;
  private session: McpSession | null = null;
  /** Its registered tools, and whose trust is withdrawn (`tools.withdrawn()`). */
  readonly tools: ServerTools;
  private readonly pins: ConnectionPins;
  /** The last tools/list of the live session, registered under the pins then read. */
  private listing: ToolListing | null = null;
  private readonly changes = new Emitter<McpServerView>();
  private readonly configWarnings: string[];
  private readonly connectWarnings = new Set<string>();
  private credentialKeys: string[] = [];
  private generation = 0;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private lastLoss: string | null = null;
  private refreshing: Promise<void> = Promise.resolve();
  // Refreshes queued on `refreshing` that have not finished yet.
  private refreshesPending = 0;
  /** A refresh is queued and has not sent its tools/list yet: a new announcement joins it. */
  private refreshQueued = false;
  /** A tools/list_changed came while the session was still opening: listed again once it is live. */
  private refreshLate = false;
  private attemptAbort: AbortController | null = null;
  private stopped = false;
  /** What of the transport's errors reaches the log (a server can provoke one per message it sends). */
  private readonly errorBudget = new LogBudget();
  private errorNoteTimer: NodeJS.Timeout | undefined;
  /** Calls the server finished after they were cancelled (late-answers.ts), and the last one's delay. */
  private lateAnswers = { count: 0, afterMs: 0 };

  constructor(
    private readonly config: McpServerConfig,
    private readonly deps: ConnectionDeps,
    warnings: string[] = [],
  ) {
    this.configWarnings = [...warnings];
    this.pins = new ConnectionPins(config.name, deps.pins, deps.log);
    this.state = config.disabled ? { status: 'disabled' } : { status: 'connecting', attempt: 1 };
    this.tools = new ServerTools(
      deps.registry,
      {
        server: config.name,
        timeoutMs: config.timeoutMs,
        trust: config.trust,
        client: () => this.liveClient(),
        lostReason: () => this.lastLoss,
        credentialKeys: this.credentialKeys,
        // A relative path is read from the server's working folder ($AGENVOY_HOME unless set), not the workspace.
        ...(config.endpoint.kind === 'stdio' && deps.cwd ? { pathsFrom: deps.cwd } : {}),
        // Set synchronously when tools/list_changed arrives: calls wait for the new list before they are decided.
        // No refresh queued or running: nothing to wait for, and no promise (docs/dispatch.md, "The hot path").
        settled: () => (this.refreshesPending > 0 ? this.refreshing : undefined),
      },
      (text) => deps.redact?.(text) ?? text,
    );
  }

  /** The server's name in mcp.json. */
  get name(): string {
    return this.config.name;
  }

  /** The server's pid while a stdio session is live (for tests and diagnostics). */
  get pid(): number | null {
    return this.session?.pid ?? null;
  }

  /** The live SDK client while the server is ready (diagnostics, the benchmark's reference path). */
  get client(): Client | null {
    return this.state.status === 'ready' ? (this.session?.client ?? null) : null;
  }

  /** The view of this server now. */
  view(): McpServerView {
    return {
      name: this.config.name,
      endpoint: this.config.endpoint.kind,
      state: { ...this.state },
      tools: this.tools.names(),
      warnings: [
        ...this.configWarnings,
        ...this.connectWarnings,
        ...this.tools.refused(),
        ...lateAnswerWarning(this.lateAnswers, this.config.endpoint.kind),
      ],
      changed: this.tools.changed(),
    };
  }

  /** Subscribes to changes of the view; returns the unsubscribe. */
  onChange(listener: (view: McpServerView) => void): () => void {
    return this.changes.on(listener);
  }

  /** Connects (unless disabled); resolves once ready or failed. */
  async start(): Promise<void> {
    if (this.config.disabled) return this.setState({ status: 'disabled' });
    this.attempt = 1;
    await this.connect(false);
  }

  /** Drops the session (if any) and connects again now, whatever the state. */
  async reconnect(): Promise<void> {
    clearTimeout(this.retryTimer);
    this.stopped = false;
    await this.closeSession();
    this.attempt = 1;
    await this.connect(false);
  }

  /** Registers the last list again under the pins as they are now (the person accepted a definition). */
  retrust(): Promise<void> {
    const run = this.refreshing.then(async () => {
      const listing = this.listing;
      const pinned = await this.pins.read();
      if (listing === null || listing !== this.listing || this.state.status !== 'ready') return;
      this.applyTools(listing, pinned);
      this.changes.emit(this.view());
    });
    this.refreshing = run.catch(() => undefined);
    return run;
  }

  /** Closes the session for good and unregisters the tools. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.errorNoteTimer);
    await this.closeSession();
    this.tools.clear();
    this.listing = null;
    await this.pins.close();
  }

  private async connect(retrying: boolean): Promise<void> {
    const generation = ++this.generation;
    this.attemptAbort?.abort();
    const attemptAbort = new AbortController();
    this.attemptAbort = attemptAbort;
    this.setState({ status: 'connecting', attempt: this.attempt });
    this.connectWarnings.clear();
    this.refreshLate = false;
    try {
      // Read before the session opens: no await lies between its tools/list and the tools it registers, so a
      // tools/list_changed cannot fall into a gap before the session is live.
      const pinned = await this.pins.read();
      const { session, tools } = await openSession(this.config, this.deps, {
        signal: attemptAbort.signal,
        prepare: (client) => this.watch(client, generation),
        onSecret: (name, value) => {
          if (!this.credentialKeys.includes(name)) this.credentialKeys.push(name);
          this.deps.onSecret?.(name, value);
        },
        onUnsetVar: (name) =>
          this.connectWarnings.add(`environment variable ${name} is not set; it expands to ""`),
        onLateAnswer: (afterMs) => this.lateAnswer(afterMs),
      });
      if (generation !== this.generation || this.stopped) {
        await session.close().catch(() => {});
        return;
      }
      this.session = session;
      this.lastLoss = null;
      this.applyTools(tools, pinned);
      this.setState({
        status: 'ready',
        transport: session.kind,
        tools: this.tools.names().length,
        since: Date.now(),
      });
      if (this.refreshLate) this.refreshTools();
      this.refreshLate = false;
    } catch (error) {
      if (generation !== this.generation || this.stopped) return;
      this.failed(error, retrying);
    }
  }

  private watch(client: Client, generation: number): void {
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (generation === this.generation) this.refreshTools();
    });
    client.onclose = () => {
      // Before the session is set, connect() itself sees the failure and reports it.
      if (generation !== this.generation || this.stopped || this.session?.client !== client) return;
      const session = this.session;
      this.lost(session.exitReason() ?? this.lastLoss ?? 'closed the connection', session.restartNow());
    };
    client.onerror = (error) => {
      // While connecting, the attempt's own failure reports the error; a stale session's errors are noise.
      if (generation !== this.generation || this.stopped || this.state.status !== 'ready') return;
      if (this.session?.kind !== 'stdio' && isConnectionLost(error)) {
        // HTTP has no process to watch: closing the session fails the in-flight calls and triggers onclose.
        this.lastLoss = `lost the connection (${clipLogged(describeError(error))})`;
        void this.session?.close().catch(() => {});
        return;
      }
      this.logTransportError(error);
    };
  }

  // docs/security.md, "A hostile MCP server": the SDK reports each message it cannot place (progress for an unknown
  // token, an answer to no request) as an error quoting the whole message, so a server could write the log at will.
  private logTransportError(error: unknown): void {
    const text = clipLogged(describeError(error));
    if (this.errorBudget.take(text.length)) {
      this.deps.log.warn('mcp transport error', { server: this.config.name, error: text });
      return;
    }
    if (this.errorNoteTimer) return;
    this.errorNoteTimer = setTimeout(() => {
      this.errorNoteTimer = undefined;
      const note = this.errorBudget.note('message');
      if (note) this.deps.log.warn('mcp server messages not logged', { server: this.config.name, note });
    }, 1000);
    this.errorNoteTimer.unref?.();
  }

  // docs/dispatch.md, "MCP requests": the person was told the call stopped; it did not, and they must hear of it.
  private lateAnswer(afterMs: number): void {
    this.lateAnswers = { count: this.lateAnswers.count + 1, afterMs };
    this.deps.log.warn('mcp server finished a cancelled call', {
      server: this.config.name,
      afterMs: Math.round(afterMs),
    });
    this.changes.emit(this.view());
  }

  /** The session ended; `restart`: stopped on purpose (it ignored a cancel), so start again at once. */
  private lost(reason: string, restart = false): void {
    // Events of the dead session (its transport's last errors) no longer concern this server.
    this.generation++;
    this.lastLoss = reason;
    const session = this.session;
    this.session = null;
    void session?.close().catch(() => {});
    const removed = this.tools.clear();
    this.listing = null;
    this.pins.stop();
    this.deps.log.warn('mcp server connection lost', {
      server: this.config.name,
      reason,
      tools: removed.length,
    });
    const wasStable =
      this.state.status === 'ready' && Date.now() - this.state.since >= this.deps.backoff.stableMs;
    // A restart after an ignored cancel is no crash: every cancel may cost one, never a growing wait or giving up.
    this.attempt = wasStable || restart ? 1 : this.attempt + 1;
    this.scheduleRetry(reason, restart ? 0 : undefined);
  }

  private failed(error: unknown, retrying: boolean): void {
    // A server's own words (an error answer to initialize can be megabytes) become the state the person reads.
    const reason = clipLogged(error instanceof ToolError ? error.message : describeError(error));
    if (retrying && !(error instanceof CredentialError)) {
      this.attempt += 1;
      return this.scheduleRetry(reason);
    }
    if (error instanceof CredentialError) {
      this.setState({ status: 'failed', reason, credential: { key: error.key, reason: error.reason } });
    } else this.setState({ status: 'failed', reason });
  }

  private scheduleRetry(reason: string, delayMs?: number): void {
    const { maxAttempts } = this.deps.backoff;
    if (this.attempt > maxAttempts) {
      return this.setState({
        status: 'failed',
        reason: `gave up after ${maxAttempts} reconnect attempts: ${reason}`,
      });
    }
    const delay = delayMs ?? retryDelay(this.deps.backoff, this.attempt);
    this.setState({ status: 'reconnecting', reason, attempt: this.attempt, retryAt: Date.now() + delay });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(true), delay);
    this.retryTimer.unref?.();
  }

  private refreshTools(): void {
    // docs/security.md, "A hostile MCP server": a queued refresh lists after every announcement made before it
    // starts, so one queued refresh answers them all. One refresh per announcement let a server that floods
    // list_changed and answers tools/list slowly hold every batch with its tools (definition-check.ts) for minutes.
    if (this.refreshQueued) return;
    this.refreshQueued = true;
    this.refreshesPending++;
    this.refreshing = this.refreshing
      .then(async () => {
        this.refreshQueued = false;
        const session = this.session;
        if (!session || this.state.status !== 'ready') {
          this.refreshLate ||= this.state.status === 'connecting';
          return;
        }
        try {
          const tools = await listAllTools(session.client, this.config.connectTimeoutMs);
          const pinned = await this.pins.read();
          if (session !== this.session || this.state.status !== 'ready') return;
          this.applyTools(tools, pinned);
          this.setState({
            status: 'ready',
            transport: session.kind,
            since: this.state.since,
            tools: this.tools.names().length,
          });
        } catch (error) {
          this.deps.log.warn('mcp tools/list after list_changed failed', {
            server: this.config.name,
            error: clipLogged(describeError(error)),
          });
        }
      })
      .finally(() => void this.refreshesPending--);
  }

  private applyTools(tools: ToolListing, pinned: ServerPins | undefined): void {
    this.listing = tools;
    const change = this.tools.sync(tools, pinned);
    this.pins.synced(change, this.tools, () => this.retrust());
    logToolChange(this.deps.log, this.config.name, change, this.deps.registry);
  }

  private liveClient(): Client {
    if (this.state.status === 'ready' && this.session) return this.session.client;
    throw new ToolError(
      'mcp_server_unavailable',
      `MCP server "${this.config.name}" is not ready: ${describeState(this.state)}`,
    );
  }

  private async closeSession(): Promise<void> {
    this.attemptAbort?.abort();
    this.pins.stop();
    const session = this.session;
    this.session = null;
    this.generation++;
    await session?.close().catch(() => {});
  }

  private setState(state: McpServerState): void {
    const before = this.state.status;
    this.state = state;
    if (state.status !== before || state.status === 'failed') {
      const line = `mcp server ${state.status}`;
      const fields = { server: this.config.name, state: describeState(state) };
      if (state.status === 'failed' || state.status === 'reconnecting') this.deps.log.warn(line, fields);
      else this.deps.log.info(line, fields);
    }
    this.changes.emit(this.view());
  }
}
