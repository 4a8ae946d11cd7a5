// Small immutable edits of the open chat's messages: one message by id, tool-call parts bound to their cards.
import type { AssistantPartView, MessageView } from '../../../preload/contract';
import type { ChatViewState } from './chat-state';

type AssistantMessage = Extract<MessageView, { kind: 'assistant' }>;

/** Replaces the assistant message `id` (searched from the end: streaming happens there) with `edit` of it. */
export function updateMessage(
  state: ChatViewState,
  id: number,
  edit: (message: AssistantMessage) => AssistantMessage,
): ChatViewState {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i] as MessageView;
    if (message.kind !== 'assistant' || message.id !== id) continue;
    const messages = state.messages.slice();
    messages[i] = edit(message);
    return { ...state, messages };
  }
  return state;
}

/** A streamed tool call: a draft part in the last assistant message until the call is queued. */
export function addDraftCall(state: ChatViewState, callId: string, name: string): ChatViewState {
  const next = editParts(state, (parts) =>
    parts.some((p) => p.type === 'tool_call' && p.callId === callId)
      ? parts
      : [...parts, { type: 'tool_call', callId, name }],
  );
  return next === state ? state : { ...next, draftCalls: [...next.draftCalls, callId] };
}

/**
 * A queued call takes the oldest draft part: the queued id may differ from the streamed one (ids made unique per
 * chat, run_tool unwrapped), but calls are queued in the order they were streamed. Without a draft it is appended.
 */
export function bindQueuedCall(state: ChatViewState, callId: string, name: string): ChatViewState {
  const draft = state.draftCalls.includes(callId) ? callId : state.draftCalls[0];
  if (draft !== undefined) {
    const next = editParts(state, (parts) =>
      parts.map((p): AssistantPartView =>
        p.type === 'tool_call' && p.callId === draft ? { type: 'tool_call', callId, name } : p,
      ),
    );
    return { ...next, draftCalls: state.draftCalls.filter((id) => id !== draft) };
  }
  return editParts(state, (parts) =>
    parts.some((p) => p.type === 'tool_call' && p.callId === callId)
      ? parts
      : [...parts, { type: 'tool_call', callId, name }],
  );
}

// Edits the parts of the last assistant message of the current turn (none when the user spoke last).
function editParts(
  state: ChatViewState,
  edit: (parts: AssistantPartView[]) => AssistantPartView[],
): ChatViewState {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i] as MessageView;
    if (message.kind === 'user') return state;
    if (message.kind !== 'assistant') continue;
    const parts = edit(message.parts);
    if (parts === message.parts) return state;
    const messages = state.messages.slice();
    messages[i] = { ...message, parts };
    return { ...state, messages };
  }
  return state;
}
