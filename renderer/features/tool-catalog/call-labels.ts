// Words for a call's source, state and outcome, shared by the card and the approval dialog.
import type { ApprovalDecisionView, ToolCallView, ToolSourceView } from '../../../preload/contract';

/** "built-in", "script (global)", "script (workspace, untrusted)", "MCP: github". */
export function sourceLabel(source: ToolSourceView): string {
  switch (source.kind) {
    case 'builtin':
      return 'built-in';
    case 'script':
      return `script (${source.scope}${source.trusted ? '' : ', untrusted'})`;
    case 'mcp':
      return `MCP: ${source.server}`;
  }
}

/** The code of a call answered with its tool's schema instead of run, for the model to call again (docs/tools.md). */
export const SCHEMA_LOADED_CODE = 'not_loaded';

/** The card's state in a word or two, and its class for colour. */
export function callState(call: ToolCallView): {
  label: string;
  tone: 'pending' | 'running' | 'ok' | 'error' | 'muted';
} {
  if (call.approval.state === 'pending') return { label: 'waiting for approval', tone: 'pending' };
  switch (call.status) {
    case 'queued':
      return { label: 'queued', tone: 'pending' };
    case 'running':
      return { label: 'running', tone: 'running' };
    case 'interrupted':
      return { label: 'interrupted', tone: 'error' };
    case 'finished':
      break;
  }
  switch (call.outcome) {
    case 'ok':
      return { label: 'ok', tone: 'ok' };
    case 'error':
      // Not a failure: a step of the conversation, which the model's next call takes up.
      if (call.code === SCHEMA_LOADED_CODE)
        return { label: 'schema loaded; the model retries', tone: 'muted' };
      return { label: call.code ? `error (${call.code})` : 'error', tone: 'error' };
    case 'timed_out':
      return { label: 'timed out', tone: 'error' };
    case 'cancelled':
      return { label: 'cancelled', tone: 'muted' };
    case 'denied':
      return { label: 'denied', tone: 'muted' };
    case null:
      return { label: 'finished', tone: 'muted' };
  }
}

/** How the call was decided, e.g. "allowed for this chat" (null when it was not asked). */
export function decisionLabel(decision: ApprovalDecisionView): string {
  switch (decision.kind) {
    case 'allow':
      return decision.scope === 'once'
        ? 'allowed once'
        : decision.scope === 'chat'
          ? 'allowed for this chat'
          : 'always allowed';
    case 'deny':
      return `${decision.scope === 'always' ? 'always denied' : 'denied'}${decision.reason ? `: ${decision.reason}` : ''}`;
    case 'stop':
      return 'turn stopped';
  }
}

/** Pretty JSON when the text is JSON, else the text as it came. */
export function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}
