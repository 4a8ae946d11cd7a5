// Folds the open chat's events (chat.event and gate.event) into its view; pure, so the store and tests share it.
import type {
  AssistantPartView,
  ChatEvent,
  GateEventView,
  MessageView,
  OutcomeView,
  ToolCallView,
} from '../../../preload/contract';
import type { ChatViewState } from './chat-state';
import { nextProgress } from './chat-state';
import { addDraftCall, bindQueuedCall, updateMessage } from './message-edits';

// User messages arrive without their stored id; a local negative id keys them until the next snapshot.
let localId = 0;

/** The chat view after one chat event; events of other chats leave it unchanged. */
export function applyChatEvent(state: ChatViewState, event: ChatEvent, now: number): ChatViewState {
  if (event.chatId !== state.chatId) return state;
  switch (event.type) {
    case 'turn.started':
      return { ...state, running: true, turnError: null };
    case 'turn.finished':
      return {
        ...state,
        running: false,
        draftCalls: [],
        turnError: event.status === 'failed' ? (event.error ?? 'the turn failed') : null,
      };
    case 'message.user': {
      const message: MessageView = {
        kind: 'user',
        id: --localId,
        seq: 0,
        createdAt: now,
        status: 'complete',
        text: event.text,
        attachments: [],
      };
      return { ...state, messages: [...state.messages, message] };
    }
    case 'message.started': {
      if (state.messages.some((m) => m.kind === 'assistant' && m.id === event.messageId)) return state;
      const message: MessageView = {
        kind: 'assistant',
        id: event.messageId,
        seq: 0,
        createdAt: now,
        status: 'streaming',
        text: '',
        parts: [],
        usage: null,
      };
      return { ...state, messages: [...state.messages, message] };
    }
    case 'text.delta':
      return updateMessage(state, event.messageId, (m) => {
        const last = m.parts[m.parts.length - 1];
        const parts: AssistantPartView[] =
          last?.type === 'text'
            ? [...m.parts.slice(0, -1), { type: 'text', text: last.text + event.delta }]
            : [...m.parts, { type: 'text', text: event.delta }];
        return { ...m, text: m.text + event.delta, parts };
      });
    case 'reasoning.delta':
      return updateMessage(state, event.messageId, (m) => ({
        ...m,
        parts: appendReasoning(m.parts, event.delta),
      }));
    case 'usage':
      return updateMessage(state, event.messageId, (m) => ({
        ...m,
        usage: { model: event.model, usage: event.usage, costUsd: event.costUsd },
      }));
    case 'message.finished':
      return updateMessage(state, event.messageId, (m) => ({ ...m, status: event.status }));
    case 'tool.call':
      return addDraftCall(state, event.callId, event.name);
    case 'call.queued': {
      const bound = bindQueuedCall(state, event.callId, event.tool);
      const call: ToolCallView = {
        chatId: event.chatId,
        callId: event.callId,
        messageId: lastAssistantId(bound.messages),
        tool: event.tool,
        source: event.source,
        args: event.args,
        ...(event.argsCut ? { argsCut: event.argsCut } : {}),
        status: 'queued',
        outcome: null,
        code: null,
        result: null,
        queuedAt: now,
        startedAt: null,
        endedAt: null,
        durationMs: null,
        limitMs: null,
        approval: state.calls[event.callId]?.approval ?? { state: 'not_asked' },
      };
      const { [event.callId]: _dropped, ...progress } = bound.progress;
      return { ...bound, calls: { ...bound.calls, [event.callId]: call }, progress };
    }
    case 'call.approval':
      return patchCall(state, event.callId, () => ({
        approval: { state: 'decided', decision: event.decision, timedOut: false, decidedAt: now },
      }));
    case 'call.started':
      return patchCall(state, event.callId, () => ({
        status: 'running',
        startedAt: event.startedAt,
        limitMs: event.limitMs,
        outcome: null,
        result: null,
      }));
    case 'call.progress':
      return {
        ...state,
        progress: {
          ...state.progress,
          [event.callId]: nextProgress(state.progress[event.callId], event.elapsedMs, event.update, now),
        },
      };
    case 'call.finished':
      return patchCall(state, event.callId, (call) => ({
        ...finishedFields(call, event.outcome, now),
        resultCut: event.cut ?? 0,
      }));
    case 'todo.updated':
      return { ...state, todos: event.items };
    case 'result.published':
      return {
        ...state,
        results: [...state.results.filter((r) => r.path !== event.result.path), event.result],
      };
    case 'task.updated':
    case 'notice':
    case 'chat.changed':
      return state;
  }
}

/** The chat view after one confirm-gate event: cards show "waiting for approval" while the dialog is open. */
export function applyGateEvent(state: ChatViewState, event: GateEventView, now: number): ChatViewState {
  if (event.chatId !== state.chatId) return state;
  switch (event.type) {
    case 'gate.requested': {
      let next = state;
      for (const { callId } of event.calls)
        next = patchCall(next, callId, () => ({ approval: { state: 'pending', requestedAt: now } }));
      const fresh = event.calls
        .filter((c) => !next.pendingApprovals.some((p) => p.callId === c.callId))
        .map((c) => ({ callId: c.callId, tool: c.tool, requestedAt: now }));
      return { ...next, pendingApprovals: [...next.pendingApprovals, ...fresh] };
    }
    case 'gate.decided': {
      const next = patchCall(state, event.callId, () => ({
        approval: {
          state: 'decided',
          decision: event.decision,
          timedOut: event.by === 'timeout',
          decidedAt: now,
        },
      }));
      return { ...next, pendingApprovals: next.pendingApprovals.filter((p) => p.callId !== event.callId) };
    }
    case 'gate.timed_out':
      return {
        ...state,
        pendingApprovals: state.pendingApprovals.filter((p) => !event.callIds.includes(p.callId)),
      };
    case 'gate.asking':
      return state;
  }
}

function patchCall(
  state: ChatViewState,
  callId: string,
  patch: (call: ToolCallView) => Partial<ToolCallView>,
): ChatViewState {
  const call = state.calls[callId];
  if (!call) return state;
  return { ...state, calls: { ...state.calls, [callId]: { ...call, ...patch(call) } } };
}

function finishedFields(call: ToolCallView, outcome: OutcomeView, now: number): Partial<ToolCallView> {
  const base = { status: 'finished' as const, outcome: outcome.outcome, endedAt: now };
  switch (outcome.outcome) {
    case 'ok':
      return { ...base, code: null, result: outcome.text, durationMs: outcome.durationMs };
    case 'error':
      return { ...base, code: outcome.code, result: outcome.message, durationMs: outcome.durationMs };
    case 'timed_out':
      return {
        ...base,
        code: null,
        result: outcome.message,
        durationMs: outcome.durationMs,
        limitMs: outcome.limitMs ?? call.limitMs,
      };
    case 'cancelled':
      return { ...base, code: null, result: outcome.message, durationMs: outcome.durationMs };
    case 'denied':
      return {
        ...base,
        code: null,
        result: outcome.reason ? `${outcome.message} (${outcome.reason})` : outcome.message,
        durationMs: null,
      };
  }
}

// Reasoning streams into the last part while it is reasoning; after text or a call it starts a part of its own.
function appendReasoning(parts: AssistantPartView[], delta: string): AssistantPartView[] {
  const last = parts[parts.length - 1];
  return last?.type === 'reasoning'
    ? [...parts.slice(0, -1), { type: 'reasoning', text: last.text + delta }]
    : [...parts, { type: 'reasoning', text: delta }];
}

function lastAssistantId(messages: MessageView[]): number | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as MessageView;
    if (m.kind === 'assistant') return m.id;
    if (m.kind === 'user') return null;
  }
  return null;
}
