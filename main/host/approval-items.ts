// The gate's prompt items as the approval dialog shows them: full arguments, pretty and redacted.
import type { AppNotice, ApprovalItemView, GrantReachView, ToolSourceView } from '../../preload/contract';
import { asciiHosts, visible } from '../gate/format-request';
import type { PromptItem, PromptNotice } from '../gate/prompter-port';
import { sourceView } from './views';

/** One prompt item as the dialog's item `index`. */
export function approvalItemView(
  item: PromptItem,
  index: number,
  redact: (text: string) => string,
): ApprovalItemView {
  const { request } = item;
  // docs/security.md, "What the person sees": like the terminal prompt, the dialog shows bidi overrides, zero-width
  // and control characters as escapes (`\u{202e}`), so a model's arguments or a repository's folder names cannot
  // reorder or hide what the person reads (JSON escapes only C0 controls), and URLs show their host in ASCII.
  // A saved rule still uses the raw text.
  const shown = (text: string) => visible(redact(text));
  const shownUrls = (text: string) => visible(asciiHosts(redact(text)));
  const shownOrNull = (text: string | null) => (text === null ? null : shown(text));
  return {
    index,
    callId: request.callId,
    tool: visible(request.tool),
    source: shownSource(sourceView(request.source)),
    flags: { ...request.flags },
    timeoutMs: request.timeoutMs,
    args: shownUrls(JSON.stringify(request.args, foldBlankRuns, 2) ?? '{}'),
    canonical: shownUrls(item.canonical),
    suggestedPattern: shownOrNull(item.suggestedPattern),
    sensitive: shownOrNull(item.sensitive),
    compound: item.compound,
    voidedRules: [...item.voidedRules],
    sandbox: request.sandbox,
    personOnly: shownOrNull(item.personOnly),
    noStanding: shownOrNull(item.noStanding),
    offers: { ...item.offers },
    grant: grantView(item.grant, shownUrls),
  };
}

// The grant's reach with hidden characters escaped and hosts in ASCII, like the arguments.
function grantView(grant: PromptItem['grant'], shown: (text: string) => string): GrantReachView {
  switch (grant?.kind) {
    case 'site':
      return { kind: 'site', site: shown(grant.site) };
    case 'program':
      return { kind: 'program', program: shown(grant.program), sites: grant.sites.map(shown) };
    default:
      return { kind: 'tool' };
  }
}

// Folder and server names come from a repository or a config file: shown with their hidden characters escaped.
function shownSource(source: ToolSourceView): ToolSourceView {
  switch (source.kind) {
    case 'builtin':
      return source;
    case 'script':
      return { ...source, dir: visible(source.dir), writable: source.writable.map(visible) };
    case 'mcp':
      return { ...source, server: visible(source.server), remoteName: visible(source.remoteName) };
  }
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

// Blank characters a browser draws as empty space: the arguments box keeps and wraps every one (pre-wrap), so
// thousands of them before the end of an argument (`find . -name '*.tmp'` … `-delete`) pushed that end far below
// what the box shows. A run of 64 or more (past any real indentation) is shown as one note saying how long it was
// (main/host/blank-run-attack.test.ts); the saved rule and the call still use the raw text.
const BLANK_RUN = /[ \t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u3164\u2800\uffa0\u115f\u1160]{64,}/gu;

function foldBlankRuns(_key: string, value: unknown): unknown {
  if (typeof value !== 'string' || value.length < 64) return value;
  return value.replace(BLANK_RUN, (run) => ` [… ${run.length.toLocaleString('en-US')} blank characters …] `);
}
