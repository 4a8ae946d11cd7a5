// How a request reads on a terminal: tool, source, flags, limit and the full arguments, long values folded, never cut silently.
import { domainToASCII } from 'node:url';
import { escapeHidden } from '../../preload/contract/hidden-characters';
import type { ApprovalRequest } from '../core/gate-port';
import type { PromptItem } from './prompter-port';

/** Strings longer than this are folded in the prompt (answer `v` to see them whole). */
export const FOLD_AT = 600;

/**
 * Makes text safe to print: control characters, C1 controls, bidi overrides and zero-width characters, which can
 * repaint a terminal or hide text, become visible escapes (the same ones the page shows).
 */
export function visible(text: string): string {
  return escapeHidden(text);
}

// A URL's scheme and authority in a text: up to the first character that ends a host in a URL, JSON or a command line.
const URL_AUTHORITY = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"'`\\<>]+)/giu;

/**
 * URLs in `text` with their host as the network will see it (docs/security.md, "What the person sees"): a host
 * written with non-ASCII letters becomes its ASCII form (`api.githuЬ.com` → `api.xn--githu-10e.com`), as browsers
 * show lookalike hosts, so a Cyrillic letter cannot pass for a Latin one in the prompt.
 */
export function asciiHosts(text: string): string {
  return text.replace(URL_AUTHORITY, (whole, scheme: string, authority: string) => {
    if (/^[\x21-\x7e]*$/.test(authority)) return whole;
    const at = authority.lastIndexOf('@') + 1;
    const [, host = '', port = ''] = /^(.*?)(:\d*)?$/u.exec(authority.slice(at)) ?? [];
    const ascii = domainToASCII(host);
    return ascii ? `${scheme}${authority.slice(0, at)}${ascii}${port}` : whole;
  });
}

/** Where a tool comes from, in words. */
export function describeSource(source: ApprovalRequest['source']): string {
  switch (source.kind) {
    case 'builtin':
      return 'built-in';
    case 'script':
      return `script folder ${source.dir}`;
    case 'mcp':
      return `MCP server ${source.server}`;
  }
}

/** The block shown for one item: what runs, where it comes from, its limits, its arguments and any warning. */
export function formatItem(
  item: PromptItem,
  position: { index: number; count: number },
  full = false,
): string {
  const { request } = item;
  const flags = Object.entries(request.flags)
    .filter(([, on]) => on)
    .map(([flag]) => flag);
  const limit = request.timeoutMs === null ? 'no limit' : `limit ${request.timeoutMs / 1000} s`;
  const lines = [
    '',
    `Approve tool call ${position.count > 1 ? `${position.index + 1} of ${position.count}: ` : ''}${visible(request.tool)}`,
    `  source:  ${visible(describeSource(request.source))}`,
    `  flags:   ${flags.length > 0 ? flags.join(', ') : 'none'} · ${limit}`,
    `  args:    ${formatArgs(request.args, full).replace(/\n/g, '\n           ')}`,
  ];
  if (item.sensitive)
    lines.push(`  ! sensitive: ${visible(item.sensitive)}: this always asks, whatever the rules`);
  for (const id of item.voidedRules)
    lines.push(`  ! rule ${visible(id)} was voided: the tool's definition changed since it approved it`);
  if (item.compound) lines.push(`  ! compound command (${item.compound}): no rule or chat grant covers it`);
  const sandbox = describeSandbox(request.sandbox);
  if (sandbox) lines.push(`  ${sandbox}`);
  if (item.personOnly)
    lines.push(`  ! it ${visible(item.personOnly)}: only your answer for this call allows it`);
  // The reason quotes words of the model's line and its working folder: escaped like the arguments, or an ESC in
  // them could move the cursor and repaint the lines above (main/cli/terminal-prompt-attack.test.ts).
  if (item.noStanding) lines.push(`  ! ${visible(item.noStanding)}`);
  return lines.join('\n') + '\n';
}

/** How the call would run, in words; null for a tool that starts no process. */
export function describeSandbox(sandbox: ApprovalRequest['sandbox']): string | null {
  switch (sandbox) {
    case 'none':
      return null;
    case 'sandboxed':
      return 'sandbox: runs in the OS sandbox (writes only in the workspace; secret locations hidden)';
    case 'unconfined_requested':
      return '! sandbox: OFF: it runs UNCONFINED, with your full access to files and the network';
    case 'unconfined_unavailable':
      return '! sandbox: none on this machine: it runs UNCONFINED, with your full access to files and the network';
  }
}

/** The arguments as indented JSON; strings past FOLD_AT are folded with a note saying how much is hidden. */
export function formatArgs(args: Record<string, unknown>, full = false): string {
  const { text, folded } = foldArgs(args, full);
  return text + (folded ? '\n(long values are folded: answer v to see them whole)' : '');
}

/**
 * The arguments as indented JSON with hidden characters escaped and non-ASCII hosts in ASCII; unless `full`, each
 * string past FOLD_AT keeps its head and its end around a note saying how much was folded (`folded` says whether).
 */
export function foldArgs(args: unknown, full = false): { text: string; folded: boolean } {
  let folded = false;
  const text = JSON.stringify(
    args,
    (_key, value: unknown) => {
      if (full || typeof value !== 'string' || value.length <= FOLD_AT) return value;
      folded = true;
      const head = value.slice(0, FOLD_AT - 200);
      const tail = value.slice(-120);
      return `${head} … [${(value.length - head.length - tail.length).toLocaleString('en-US')} characters folded] … ${tail}`;
    },
    2,
  );
  return { text: visible(asciiHosts(text ?? '{}')), folded };
}
