// How much of a call's arguments and result a card gets at first (docs/interface.md, "Large calls"). Each may be a
// MiB (`limits.toolArgumentsBytes`, the result cap), and a chat keeps every call: an allowed tool printing a
// repository's megabyte of log, called hundreds of times, made a chat whose snapshot no window could hold, then none
// that JSON could even write (V8's strings end near 512 MiB). A card gets the start of a long text and says how much
// is left; `chats.call` gives one call whole when the person asks for it.
import type { ApprovalRecord, ToolCallRecord } from '../store';
import type { ToolCallView } from '../../preload/contract';
import { toolCallView } from './message-views';
import { clipChars } from '../core/clip-chars';
import { CARD_TEXT_CHARS } from './shown-text';

/** What the newest calls of a snapshot get in all before older ones get only CARD_TEXT_MIN_CHARS each. */
export const SNAPSHOT_CARD_BUDGET = 4 * 1024 * 1024;
/** The start of each text an older call's card gets once the snapshot's budget is spent. */
export const CARD_TEXT_MIN_CHARS = 1_024;

/** A call's card with its texts clipped to `max` characters each (`argsCut`, `resultCut` say what was left out). */
export function cardView(
  call: ToolCallRecord,
  approval: ApprovalRecord | undefined,
  max: number = CARD_TEXT_CHARS,
): ToolCallView {
  const view = toolCallView(call, approval);
  const args = clipChars(view.args, max);
  view.args = args.text;
  if (args.cut > 0) view.argsCut = args.cut;
  if (view.result !== null) {
    const result = clipChars(view.result, max);
    view.result = result.text;
    if (result.cut > 0) view.resultCut = result.cut;
  }
  return view;
}

/**
 * The cards of a snapshot, in call order: the newest get CARD_TEXT_CHARS of each text until SNAPSHOT_CARD_BUDGET is
 * spent, older ones CARD_TEXT_MIN_CHARS, so a chat of any length opens in a few MiB.
 */
export function snapshotCards(
  calls: readonly ToolCallRecord[],
  approvals: ReadonlyMap<string, ApprovalRecord>,
): ToolCallView[] {
  const cards = new Array<ToolCallView>(calls.length);
  let left = SNAPSHOT_CARD_BUDGET;
  for (let i = calls.length - 1; i >= 0; i--) {
    const call = calls[i] as ToolCallRecord;
    const card = cardView(call, approvals.get(call.callId), left > 0 ? CARD_TEXT_CHARS : CARD_TEXT_MIN_CHARS);
    left -= card.args.length + (card.result?.length ?? 0);
    cards[i] = card;
  }
  return cards;
}
