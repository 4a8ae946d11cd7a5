// One server's side of the trusted-definitions record (docs/security.md, "MCP trust"): the pins read before each sync,
// first-seen definitions written after it, and, while a trusted tool asks because its definition changed, a look at
// the record every 2 s, so an accept made elsewhere (`agenvoy mcp accept` beside the running app) applies at once.
import type { ToolLogger } from '../../../tools/sdk/types';
import { describeError } from './call-errors';
import { clipLogged } from './log-budget';
import type { ServerTools, ToolSetChange } from './server-tools';
import type { ServerPins, TrustedDefinitions } from './trusted-definitions';

/** How often the record is looked at while a tool asks (the file is read again only when it changed). */
export const ACCEPT_POLL_MS = 2000;

/** The pins of one server. */
export class ConnectionPins {
  private watch: NodeJS.Timeout | undefined;
  // The last record write, awaited on close: a short run (one CLI command) keeps what it saw first.
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly server: string,
    private readonly store: TrustedDefinitions | undefined,
    private readonly log: ToolLogger,
  ) {}

  /** The pins now; undefined when no record is kept (this process's first sight decides). */
  read(): Promise<ServerPins | undefined> {
    return this.store ? this.store.forServer(this.server) : Promise.resolve(undefined);
  }

  /** After a sync: records what was seen first, and watches for accepts while a tool's trust is withdrawn. */
  synced(change: ToolSetChange, tools: ServerTools, retrust: () => Promise<void>): void {
    const { store } = this;
    if (store && change.firstSeen.length > 0)
      // A definition that cannot be written is not trusted: its trust would not outlast this run (trust-judge.ts).
      this.writing = store.record(this.server, change.firstSeen).catch((error: unknown) => {
        if (this.closed) return;
        const reason = clipLogged(describeError(error));
        this.log.warn('mcp trusted definitions not recorded', { server: this.server, error: reason });
        tools.judge.notRecorded(change.firstSeen, reason);
        return retrust().catch(() => undefined);
      });
    this.stop();
    if (!store || tools.withdrawn().length === 0) return;
    let looking = false;
    this.watch = setInterval(() => {
      // One look at a time: reading a large record can take longer than the interval.
      if (looking) return;
      looking = true;
      this.read()
        .then((pinned) => (tools.judge.acceptedIn(pinned) ? retrust() : undefined))
        .catch((error: unknown) =>
          this.log.warn('mcp trusted definitions not read', {
            server: this.server,
            error: clipLogged(describeError(error)),
          }),
        )
        .finally(() => (looking = false));
    }, ACCEPT_POLL_MS);
    this.watch.unref?.();
  }

  /** Stops watching (the session ended). */
  stop(): void {
    clearInterval(this.watch);
    this.watch = undefined;
  }

  /** Stops for good, once the last record write is done (a failure then is nobody's to act on: not logged). */
  async close(): Promise<void> {
    this.stop();
    this.closed = true;
    await this.writing;
  }
}
