// Whether a server's trusted tools are still the ones the person trusted (docs/security.md, "MCP trust"). mcp.json
// trusts a tool by its name, or by the server's own read-only hint; the trust covers the definition the app first met
// the tool with, or the one the person accepted since. A server that swaps a trusted "dictionary lookup" for "upload
// any text to a public pastebin" keeps the name (tools/list_changed, or a new version between two runs of the app), so
// the changed tool asks on every call until its definition is the recorded one again or the person accepts the new one.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpTrust } from './config-types';
import type { DefinitionPin } from './definition-pins';
import {
  definitionHash,
  describeChange,
  MAX_PINNED_TOOLS,
  MAX_SERVER_PIN_BYTES,
  pinBytes,
  pinOf,
  recordProblem,
} from './definition-pins';
import { isTrusted } from './tool-spec';
import type { ServerPins } from './trusted-definitions';

/**
 * Why a trusted tool asks: its definition `changed` since it was recorded, the record is `damaged`, or the definition
 * could not be recorded (`unrecorded`: a trust that would not outlast this run is not given).
 */
export type WithdrawnKind = 'changed' | 'damaged' | 'unrecorded';

/** A trusted tool whose trust is withdrawn: it asks on every call until the person accepts it (or the cause is gone). */
export interface WithdrawnTool {
  /** Its name on the server. */
  tool: string;
  kind: WithdrawnKind;
  /** Its definition now, as accepting it would record it. */
  now: DefinitionPin;
  /** The recorded one (null when there is none to compare: a damaged record, or none written). */
  pinned: DefinitionPin | null;
  /** Why, in words (also among the server's warnings). */
  reason: string;
  /** What the server defines now, to show in full where it changed (the record keeps hashes and a cut description). */
  definition: Pick<Tool, 'description' | 'title' | 'inputSchema' | 'outputSchema' | 'annotations'>;
}

/** What judging one tools/list found. */
export interface Judgement {
  withdrawn: Map<string, WithdrawnTool>;
  /** Definitions met for the first time, to be recorded. */
  firstSeen: DefinitionPin[];
}

/** The trust judge of one server; it remembers what it read and recorded for the whole run. */
export class TrustJudge {
  // What the record held when last read, and what this run saw first: a record removed or damaged while the app runs
  // gives no changed tool its trust back.
  private readonly known = new Map<string, DefinitionPin>();
  // Tools whose first-seen definition could not be written, with the reason.
  private readonly unrecorded = new Map<string, string>();
  private withdrawnNow = new Map<string, WithdrawnTool>();

  constructor(
    private readonly server: string,
    private readonly trust: McpTrust,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** The withdrawn tools of the last judgement. */
  withdrawn(): WithdrawnTool[] {
    return [...this.withdrawnNow.values()];
  }

  /** Whether a tool of `name` is withdrawn now. */
  isWithdrawn(name: string): boolean {
    return this.withdrawnNow.has(name);
  }

  /** Forgets the last judgement (the session ended); what was read and recorded stays. */
  clear(): void {
    this.withdrawnNow = new Map();
  }

  /** Whether `pinned` now settles a withdrawn tool (accepted elsewhere, a repaired record, a pin written at last). */
  acceptedIn(pinned: ServerPins | undefined): boolean {
    if (!pinned || pinned.problem) return false;
    for (const entry of this.withdrawnNow.values()) {
      const recorded = pinned.pins.get(entry.tool);
      if (entry.kind === 'damaged' || (recorded && recorded.definition === entry.now.definition)) return true;
      if (entry.kind === 'unrecorded' && recorded) return true;
    }
    return false;
  }

  /** The first-seen definitions `pins` could not be written (`reason`): their tools ask until they are. */
  notRecorded(pins: readonly DefinitionPin[], reason: string): void {
    for (const pin of pins) this.unrecorded.set(pin.tool, reason);
  }

  /**
   * Judges a listing against the record (`pinned`; none kept: this run's first sight decides). With `"trust": true`
   * every tool is recorded, trusted or not, so a tool that turns its read-only hint on later is a change, not a first
   * sight.
   */
  judge(tools: readonly Tool[], pinned: ServerPins | undefined): Judgement {
    const judgement: Judgement = { withdrawn: new Map(), firstSeen: [] };
    if (pinned && !pinned.problem) for (const [name, pin] of pinned.pins) this.known.set(name, pin);
    // What the server's pins take in the record, counted only when a first sight needs it.
    let bytes: number | null = null;
    const taken = () => (bytes ??= [...this.known.values()].reduce((sum, pin) => sum + pinBytes(pin), 0));
    for (const tool of tools) {
      const trusted = isTrusted(this.trust, tool.name, tool.annotations?.readOnlyHint === true);
      if (!trusted && this.trust.kind !== 'read-only') continue;
      const withdrawn = (kind: WithdrawnKind, reason: string, known: DefinitionPin | null = null) => {
        if (!trusted) return;
        const { description, title, inputSchema, outputSchema, annotations } = tool;
        judgement.withdrawn.set(tool.name, {
          tool: tool.name,
          kind,
          now: pinOf(tool, 'accepted', this.redact),
          pinned: known,
          reason,
          definition: { description, title, inputSchema, outputSchema, annotations },
        });
      };
      const quoted = JSON.stringify(tool.name);
      if (pinned?.problem) {
        withdrawn('damaged', `tool ${quoted} is not trusted now: ${pinned.problem}`);
        continue;
      }
      const known = this.known.get(tool.name);
      if (known === undefined) {
        const first = pinOf(tool, 'first-seen', this.redact);
        // Every bound the record's writer holds to is checked here, before the tool is trusted: a tool the record
        // cannot take would otherwise be seen "first" again in every run, whatever it had become.
        const problem =
          recordProblem(this.server, first) ??
          pinned?.full ??
          (this.known.size >= MAX_PINNED_TOOLS
            ? `the record already holds the most tools a server can have (${MAX_PINNED_TOOLS})`
            : null) ??
          (taken() + pinBytes(first) > MAX_SERVER_PIN_BYTES
            ? `the server's recorded definitions would pass ${MAX_SERVER_PIN_BYTES / (1024 * 1024)} MiB`
            : null);
        if (problem) {
          withdrawn('unrecorded', this.unrecordedReason(quoted, problem));
          continue;
        }
        bytes = taken() + pinBytes(first);
        this.known.set(tool.name, first);
        judgement.firstSeen.push(first);
        continue;
      }
      const unrecorded = this.unrecorded.get(tool.name);
      if (unrecorded !== undefined && !pinned?.pins.has(tool.name)) {
        withdrawn('unrecorded', this.unrecordedReason(quoted, unrecorded));
        continue;
      }
      if (known.definition === definitionHash(tool)) continue;
      const since = known.pinnedAt.slice(0, 16).replace('T', ' ');
      const now = pinOf(tool, 'accepted', this.redact);
      withdrawn(
        'changed',
        `tool ${quoted} is no longer trusted: the server changed ${describeChange(known, now)} since it was ` +
          `recorded (${since} UTC), so it asks on every call until its definition is the recorded one again or you ` +
          `accept the new one (agenvoy mcp changed, then agenvoy mcp accept; or Review changes in the Tools panel)`,
        known,
      );
    }
    this.withdrawnNow = judgement.withdrawn;
    return judgement;
  }

  private unrecordedReason(quoted: string, problem: string): string {
    return `tool ${quoted} is not trusted: its definition could not be recorded (${problem}), so trust in it would not outlast this run; it asks on every call`;
  }
}
