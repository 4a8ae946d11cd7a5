// The ToolContext a handler gets, as a class: one is made for every call, and an object literal with getters and a
// symbol key is a slow, large object on V8, most of what a call allocates (docs/dispatch.md, "The hot path").
import type { CallApproval, ProgressUpdate, ToolContext, ToolServices } from '../../tools/sdk/types';
import type { CallAbort } from './call-abort';
import { CALL_ABORT } from './call-abort';
import type { AppLogger } from './logger';

/** What a call's context is made of. */
export interface CallContextParts {
  /** A foreground call's CallAbort (its signal made on first read), or a task's AbortSignal. */
  cancel: CallAbort | AbortSignal;
  progress: (update: ProgressUpdate) => void;
  /** The logger the call's own is a child of, made on first use: most handlers (an MCP call) never log. */
  log: AppLogger;
  getSecret: ToolContext['getSecret'];
  workspace: string;
  chatId: string;
  callId: string;
  tool: string;
  deadline: number | null;
  approval: CallApproval;
  services: ToolServices;
}

/** One call's ToolContext; handlers of this app that only watch the cancel find it under CALL_ABORT. */
export class CallContext implements ToolContext {
  readonly [CALL_ABORT]: CallAbort | null;
  readonly progress: (update: ProgressUpdate) => void;
  readonly getSecret: ToolContext['getSecret'];
  readonly workspace: string;
  readonly chatId: string;
  readonly callId: string;
  readonly deadline: number | null;
  readonly approval: CallApproval;
  readonly services: ToolServices;
  // A task's signal; null for a foreground call, whose signal its CallAbort makes on first read.
  private readonly taskSignal: AbortSignal | null;
  private readonly root: AppLogger;
  private readonly tool: string;
  private child: AppLogger | undefined;

  constructor(parts: CallContextParts) {
    const isSignal = parts.cancel instanceof AbortSignal;
    this.taskSignal = isSignal ? (parts.cancel as AbortSignal) : null;
    this[CALL_ABORT] = isSignal ? null : (parts.cancel as CallAbort);
    this.progress = parts.progress;
    this.root = parts.log;
    this.tool = parts.tool;
    this.getSecret = parts.getSecret;
    this.workspace = parts.workspace;
    this.chatId = parts.chatId;
    this.callId = parts.callId;
    this.deadline = parts.deadline;
    this.approval = parts.approval;
    this.services = parts.services;
  }

  get signal(): AbortSignal {
    return this.taskSignal ?? (this[CALL_ABORT] as CallAbort).signal;
  }

  get log(): AppLogger {
    return (this.child ??= this.root.child({ tool: this.tool, call: this.callId }));
  }
}
