// Turn events and gate events as the contract's payloads (JSON-safe, no raw content parts).
import type { ChatEvent, GateEventView, OutcomeView, ToolSourceView } from '../../preload/contract';
import type { TurnEvent } from '../agent/turn-events';
import { clipChars } from '../core/clip-chars';
import type { GateEvent } from '../gate/gate-events';
import { CARD_TEXT_CHARS, shownArgs, shownResult, shownText, shownTodos } from './shown-text';
import { outcomeView, taskItem } from './views';

/** A TurnEvent as the chat window receives it; `sourceOf` names a tool's source for a new card. */
export function chatEvent(event: TurnEvent, sourceOf: (tool: string) => ToolSourceView): ChatEvent {
  const shown = shownEvent(event, sourceOf);
  // An unknown tool's name is the model's to write: its card shows it with hidden characters as escapes.
  if (shown.type === 'tool.call') return { ...shown, name: shownText(shown.name) };
  if (shown.type.startsWith('call.') && 'tool' in shown) return { ...shown, tool: shownText(shown.tool) };
  return shown;
}

function shownEvent(event: TurnEvent, sourceOf: (tool: string) => ToolSourceView): ChatEvent {
  switch (event.type) {
    case 'turn.started':
    case 'message.user':
    case 'message.started':
    case 'text.delta':
    case 'reasoning.delta':
    case 'usage':
    case 'message.finished':
    case 'tool.call':
    case 'notice':
    case 'turn.finished':
      return structuredClone(event);
    // The side panels show what the model wrote with hidden characters as escapes, as a call's card does.
    case 'todo.updated':
      return { type: 'todo.updated', chatId: event.chatId, items: shownTodos(event.items) };
    case 'result.published':
      return { type: 'result.published', chatId: event.chatId, result: shownResult(event.result) };
    // A card gets the start of a long text, as from a snapshot (docs/interface.md, "Large calls").
    case 'call.queued': {
      const args = clipChars(shownArgs(JSON.stringify(event.args)), CARD_TEXT_CHARS);
      return {
        type: 'call.queued',
        chatId: event.chatId,
        callId: event.callId,
        tool: event.tool,
        source: sourceOf(event.tool),
        args: args.text,
        ...(args.cut > 0 ? { argsCut: args.cut } : {}),
      };
    }
    case 'call.approval':
      return { ...event, decision: { ...event.decision } };
    case 'call.started':
      return {
        ...event,
        limitMs: event.limitMs !== null && Number.isFinite(event.limitMs) ? event.limitMs : null,
      };
    case 'call.progress':
      return { ...event, update: shownUpdate(event.update) };
    case 'call.finished': {
      const { outcome, cut } = clippedOutcome(outcomeView(event.outcome));
      return { ...event, outcome, ...(cut > 0 ? { cut } : {}) };
    }
    case 'task.updated':
      return { type: 'task.updated', chatId: event.chatId, task: taskItem(event.task, event.chatId) };
  }
}

// An outcome whose text (ok) or message (any other) a card begins with.
function clippedOutcome(outcome: OutcomeView): { outcome: OutcomeView; cut: number } {
  if (outcome.outcome === 'ok') {
    const { text, cut } = clipChars(outcome.text, CARD_TEXT_CHARS);
    return { outcome: { ...outcome, text }, cut };
  }
  const { text, cut } = clipChars(outcome.message, CARD_TEXT_CHARS);
  return { outcome: { ...outcome, message: text }, cut };
}

/** A gate event as the chat window receives it (it never carries argument values). */
export function gateEventView(event: GateEvent): GateEventView {
  return structuredClone(event);
}

// A progress update with its words shown as the card shows them (docs/security.md, "What the person sees").
function shownUpdate(update: Extract<TurnEvent, { type: 'call.progress' }>['update']) {
  const shown = { ...update };
  if (shown.message !== undefined) shown.message = shownText(shown.message);
  if (shown.output !== undefined) shown.output = shownText(shown.output);
  return shown;
}
