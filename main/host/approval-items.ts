// The gate's prompt items as the approval dialog shows them: full arguments, pretty and redacted.
import type { AppNotice, ApprovalItemView } from '../../preload/contract';
import type { PromptItem, PromptNotice } from '../gate/prompter-port';
import { sourceView } from './views';

/** One prompt item as the dialog's item `index`. */
export function approvalItemView(
  item: PromptItem,
  index: number,
  redact: (text: string) => string,
): ApprovalItemView {
  const { request } = item;
  return {
    index,
    callId: request.callId,
    tool: request.tool,
    source: sourceView(request.source),
    flags: { ...request.flags },
    timeoutMs: request.timeoutMs,
    args: redact(JSON.stringify(request.args, null, 2) ?? '{}'),
    canonical: redact(item.canonical),
    suggestedPattern: item.suggestedPattern === null ? null : redact(item.suggestedPattern),
    sensitive: item.sensitive,
    compound: item.compound,
    voidedRules: [...item.voidedRules],
    sandbox: request.sandbox,
    personOnly: item.personOnly,
    noStanding: item.noStanding,
    offers: { ...item.offers },
  };
}

/** A gate notice as an app notice. */
export function appNotice(notice: PromptNotice): AppNotice {
  switch (notice.kind) {
    case 'timed_out':
      return {
        kind: 'approval_timed_out',
        chatId: notice.chatId,
        tools: [...notice.tools],
        afterMs: notice.afterMs,
      };
    case 'rule_saved':
    case 'rule_not_saved':
    case 'settled':
      return { ...notice };
  }
}
