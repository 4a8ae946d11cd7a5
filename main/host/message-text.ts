// How much of a message's texts the chat gets at first (docs/interface.md, "Large calls"). A model's answer may hold
// 16 Mi characters of text and reasoning a round, 128 rounds a turn, and a person's message a million: sent whole, a
// long chat's messages, like its calls' results, grew past what a window holds and what JSON can write. The newest
// messages come whole up to the Markdown limit; `chats.message` gives one whole on request.
import type { AssistantPartView, MessageView } from '../../preload/contract';
import { clipChars } from '../core/clip-chars';

/** The most of one message's texts the chat gets at first: what the window renders as Markdown at most. */
export const MESSAGE_TEXT_CHARS = 200_000;
/** What the newest messages of a snapshot get in all before older ones get only MESSAGE_TEXT_MIN_CHARS each. */
export const SNAPSHOT_MESSAGE_BUDGET = 8 * 1024 * 1024;
/** The start of an older message's texts once the snapshot's budget is spent. */
export const MESSAGE_TEXT_MIN_CHARS = 4_096;

/** `view` with at most `max` characters of its texts (an answer's text and reasoning parts in order), and `cut`. */
export function clipMessage(view: MessageView, max: number = MESSAGE_TEXT_CHARS): MessageView {
  if (view.kind !== 'assistant') {
    const { text, cut } = clipChars(view.text, max);
    return cut > 0 ? { ...view, text, cut } : view;
  }
  // A message still streaming grows by deltas on what the page has: it is sent as it is.
  if (view.status === 'streaming') return view;
  let left = max;
  let cut = 0;
  const parts = view.parts.map((part): AssistantPartView => {
    if (part.type === 'tool_call') return part;
    const clipped = clipChars(part.text, Math.max(0, left));
    left -= clipped.text.length;
    cut += clipped.cut;
    return clipped.cut > 0 ? { ...part, text: clipped.text } : part;
  });
  if (cut === 0) return view;
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  return { ...view, parts, text, cut };
}

/** The messages of a snapshot, newest first within SNAPSHOT_MESSAGE_BUDGET, older ones MESSAGE_TEXT_MIN_CHARS each. */
export function snapshotMessages(views: readonly MessageView[]): MessageView[] {
  const shown = new Array<MessageView>(views.length);
  let left = SNAPSHOT_MESSAGE_BUDGET;
  for (let i = views.length - 1; i >= 0; i--) {
    const view = clipMessage(views[i] as MessageView, left > 0 ? MESSAGE_TEXT_CHARS : MESSAGE_TEXT_MIN_CHARS);
    left -= view.kind === 'assistant' ? 2 * view.text.length : view.text.length;
    shown[i] = view;
  }
  return shown;
}
