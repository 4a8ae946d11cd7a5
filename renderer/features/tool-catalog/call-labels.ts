// Words for a call's source, state and outcome, shared by the card and the approval dialog.
import type { ApprovalDecisionView, ToolCallView, ToolSourceView } from '../../../preload/contract';
import { t } from '../../i18n/i18n';

/** "built-in", "script (global)", "script (workspace, untrusted)", "MCP: github". */
export function sourceLabel(source: ToolSourceView): string {
  switch (source.kind) {
    case 'builtin':
      return t('call.builtin');
    case 'script':
      return t(source.trusted ? 'call.script' : 'call.scriptUntrusted', { scope: source.scope });
    case 'mcp':
      return t('call.mcp', { server: source.server });
  }
}

/** The code of a call answered with its tool's schema instead of run, for the model to call again (docs/tools.md). */
export const SCHEMA_LOADED_CODE = 'not_loaded';

/** The card's state in a word or two (`label`: stable English, for data-state; `text`: in the UI's language), and its class for colour. */
export function callState(call: ToolCallView): {
  label: string;
  text: string;
  tone: 'pending' | 'running' | 'ok' | 'error' | 'muted';
} {
  const state = callStateKey(call);
  return {
    label: state.label,
    text: t(`call.state.${state.key}`, { code: call.code ?? '' }),
    tone: state.tone,
  };
}

type StateKey =
  | 'waiting'
  | 'queued'
  | 'running'
  | 'interrupted'
  | 'ok'
  | 'schemaLoaded'
  | 'error'
  | 'errorCode'
  | 'timedOut'
  | 'cancelled'
  | 'denied'
  | 'finished';

function callStateKey(call: ToolCallView): {
  label: string;
  key: StateKey;
  tone: 'pending' | 'running' | 'ok' | 'error' | 'muted';
} {
  if (call.approval.state === 'pending')
    return { label: 'waiting for approval', key: 'waiting', tone: 'pending' };
  switch (call.status) {
    case 'queued':
      return { label: 'queued', key: 'queued', tone: 'pending' };
    case 'running':
      return { label: 'running', key: 'running', tone: 'running' };
    case 'interrupted':
      return { label: 'interrupted', key: 'interrupted', tone: 'error' };
    case 'finished':
      break;
  }
  switch (call.outcome) {
    case 'ok':
      return { label: 'ok', key: 'ok', tone: 'ok' };
    case 'error':
      // Not a failure: a step of the conversation, which the model's next call takes up.
      if (call.code === SCHEMA_LOADED_CODE)
        return { label: 'schema loaded; the model retries', key: 'schemaLoaded', tone: 'muted' };
      return call.code
        ? { label: `error (${call.code})`, key: 'errorCode', tone: 'error' }
        : { label: 'error', key: 'error', tone: 'error' };
    case 'timed_out':
      return { label: 'timed out', key: 'timedOut', tone: 'error' };
    case 'cancelled':
      return { label: 'cancelled', key: 'cancelled', tone: 'muted' };
    case 'denied':
      return { label: 'denied', key: 'denied', tone: 'muted' };
    case null:
      return { label: 'finished', key: 'finished', tone: 'muted' };
  }
}

/** How the call was decided, e.g. "allowed for this chat" (null when it was not asked). */
export function decisionLabel(decision: ApprovalDecisionView): string {
  switch (decision.kind) {
    case 'allow':
      return t(`call.decision.${decision.scope}`);
    case 'deny': {
      const denied = t(decision.scope === 'always' ? 'call.decision.alwaysDenied' : 'call.decision.denied');
      return decision.reason
        ? t('call.decision.withReason', { decision: denied, reason: decision.reason })
        : denied;
    }
    case 'stop':
      return t('call.decision.stopped');
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
