// The shapes around one dispatched call: where it runs, the events it emits, and what the approval step decided.
import type { ProgressUpdate, ToolServices } from '../../tools/sdk/types';
import type { ApprovalDecision } from './gate-port';
import type { CallOutcome } from './outcome';
import type { LazyScope } from './prepare-call';
import type { RegisteredTool } from './registry';

/** Where a call runs: its chat, workspace and the turn's cancel signal. */
export interface CallScope {
  chatId: string;
  workspace: string;
  signal?: AbortSignal;
  /** Set for model turns: a call loads the schema of a tool the chat has not loaded (docs/tools.md, "Tool discovery"). */
  lazy?: LazyScope | null;
  /** Services of this turn or host, merged over the core's (e.g. the turn's heal budget). */
  services?: ToolServices;
  /** Tools this host or chat offers; any other is refused, even through run_tool (e.g. no ask_user in a subagent). */
  offered?: (tool: RegisteredTool) => boolean;
}

/** Per-call events for the UI and the CLI. Arguments and results are already redacted. */
export type CallEvent =
  | { type: 'call.queued'; callId: string; chatId: string; tool: string; args: Record<string, unknown> }
  | { type: 'call.approval'; callId: string; chatId: string; tool: string; decision: ApprovalDecision }
  | {
      type: 'call.started';
      callId: string;
      chatId: string;
      tool: string;
      startedAt: number;
      limitMs: number | null;
    }
  | {
      type: 'call.progress';
      callId: string;
      chatId: string;
      tool: string;
      elapsedMs: number;
      update: ProgressUpdate;
    }
  | { type: 'call.finished'; callId: string; chatId: string; tool: string; outcome: CallOutcome };

/** The result of the approval step for a batch. */
export interface ApprovalResult {
  /** Per call: null to run, or the outcome that replaces running it. */
  outcomes: Array<CallOutcome | null>;
  /** The user chose to stop the turn. */
  stop: boolean;
}
