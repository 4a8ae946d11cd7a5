// The terminal ApprovalPrompter: shows each pending call and reads y / c / a / d / n / s (and v to see folded values).
import { asciiHosts, formatItem, visible } from './format-request';
import { LineReader } from './line-reader';
import type {
  ApprovalPrompter,
  PromptChoice,
  PromptItem,
  PromptNotice,
  PromptSession,
} from './prompter-port';
import { seconds } from './verdicts';

/** Streams of a terminal prompter. */
export interface TerminalPrompterOptions {
  input: NodeJS.ReadableStream;
  /** Where prompts and notices go (stderr, so stdout stays the command's result). */
  write: (text: string) => void;
  /** The stream a TTY echoes typed input to. */
  echo?: NodeJS.WritableStream;
}

/** Asks on a terminal, one batch at a time, one item after another. */
export class TerminalPrompter implements ApprovalPrompter {
  private readonly reader: LineReader;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: TerminalPrompterOptions) {
    this.reader = new LineReader(options.input, options.echo, options.write);
  }

  /** Asks about every pending item in order; batches from several chats wait their turn. */
  prompt(session: PromptSession): Promise<void> {
    const run = this.queue.then(() => this.run(session));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Prints a notice between prompts. */
  notify(notice: PromptNotice): void {
    this.options.write(noticeText(notice) + '\n');
  }

  private async run(session: PromptSession): Promise<void> {
    const count = session.items.length;
    try {
      if (count > 1) this.options.write(`\n${count} tool calls need approval; answer each in turn.\n`);
      if (session.timeoutMs !== null)
        this.options.write(`(unanswered calls are denied after ${seconds(session.timeoutMs)} s)\n`);
      for (const [index, item] of session.items.entries()) {
        if (!session.isPending(index)) continue;
        this.options.write(formatItem(item, { index, count }));
        const choice = await this.readChoice(item, session, { index, count });
        if (choice === null) return;
        await session.answer(index, choice);
      }
    } finally {
      this.reader.release();
    }
  }

  private async readChoice(
    item: PromptItem,
    session: PromptSession,
    position: { index: number; count: number },
  ): Promise<PromptChoice | null> {
    const menu = menuText(item);
    for (;;) {
      if (session.signal.aborted) return null;
      this.options.write(menu);
      const line = await this.reader.next(session.signal);
      if (line === null) return null;
      const [word = '', ...rest] = line.trim().split(/\s+/);
      const inline = rest.join(' ').trim();
      switch (word.toLowerCase()) {
        case 'y':
        case 'yes':
          return { kind: 'allow_once' };
        case 'c':
        case 'chat':
          if (item.offers.chat) return { kind: 'allow_chat' };
          break;
        case 'a':
        case 'always':
          if (item.offers.always) {
            const pattern = await this.readPattern(item, session, 'allow');
            return pattern === false ? null : { kind: 'allow_always', pattern };
          }
          break;
        case 'd':
        case 'never': {
          const pattern = await this.readPattern(item, session, 'deny');
          return pattern === false
            ? null
            : { kind: 'deny_always', pattern, ...(inline ? { reason: inline } : {}) };
        }
        case 'n':
        case 'no': {
          const reason =
            inline ||
            (await this.reader.next(this.ask(session, 'Reason for the model (optional, Enter for none): ')));
          if (reason === null && session.signal.aborted) return null;
          return reason ? { kind: 'deny', reason: reason.trim() } : { kind: 'deny' };
        }
        case 's':
        case 'stop':
          return { kind: 'stop' };
        case 'v':
        case 'view':
          this.options.write(formatItem(item, position, true));
          continue;
      }
      this.options.write(`Please answer ${letters(item)}.\n`);
    }
  }

  // The rule pattern: Enter keeps the exact command line, `-` covers any arguments, anything else is a glob.
  private async readPattern(
    item: PromptItem,
    session: PromptSession,
    effect: 'allow' | 'deny',
  ): Promise<string | null | false> {
    if (item.suggestedPattern === null) return null;
    const line = await this.reader.next(
      this.ask(
        session,
        sitePattern(item)
          ? `Rule pattern to always ${effect} [Enter: this site, \`${visible(item.suggestedPattern)}\`; -: any address; or a URL glob like \`https://*.example.com/**\`]: `
          : `Rule pattern to always ${effect} [Enter: exactly \`${visible(item.suggestedPattern)}\`; -: any command; or a glob like \`git push **\`]: `,
      ),
    );
    if (line === null) return session.signal.aborted ? false : item.suggestedPattern;
    const answer = line.trim();
    if (answer === '') return item.suggestedPattern;
    return answer === '-' ? null : answer;
  }

  private ask(session: PromptSession, question: string): AbortSignal {
    this.options.write(question);
    return session.signal;
  }
}

// A URL call's suggestion is its site (`https://host/**`); a command's is its line with every `*` escaped.
function sitePattern(item: PromptItem): boolean {
  return item.suggestedPattern !== null && /^https?:\/\/[^/\s]+\/\*\*$/.test(item.suggestedPattern);
}

function menuText(item: PromptItem): string {
  const choices = ['[y] allow once'];
  if (item.offers.chat) choices.push(`[c] allow ${grantText(item.grant)}for this chat`);
  if (item.offers.always)
    choices.push(
      `[a] always allow${item.suggestedPattern === null ? '' : sitePattern(item) ? ' (this site)' : ' (this command)'}`,
    );
  choices.push('[d] always deny', '[n] deny (+ reason for the model)', '[s] stop the turn', '[v] view all');
  return `${choices.join('  ')}\n> `;
}

// What "allow for this chat" covers, named as the dialog names it: "https://host ", "npm ", "curl to https://api.x ".
function grantText(grant: PromptItem['grant']): string {
  const shown = (text: string) => visible(asciiHosts(text));
  switch (grant?.kind) {
    case 'site':
      return `${shown(grant.site)} `;
    case 'program':
      return grant.sites.length === 0
        ? `${shown(grant.program)} `
        : `${shown(grant.program)} to ${grant.sites.map(shown).join(', ')} `;
    default:
      return '';
  }
}

function letters(item: PromptItem): string {
  return ['y', item.offers.chat ? 'c' : null, item.offers.always ? 'a' : null, 'd', 'n', 's', 'v']
    .filter(Boolean)
    .join(', ');
}

/** The line a notice prints. */
export function noticeText(notice: PromptNotice): string {
  switch (notice.kind) {
    case 'timed_out':
      return `No answer within ${seconds(notice.afterMs)} s: denied ${notice.tools.map(visible).join(', ')}.`;
    case 'rule_saved': {
      const what =
        notice.pattern === null
          ? visible(notice.tool)
          : `${visible(notice.tool)} "${visible(notice.pattern)}"`;
      return `Saved rule ${notice.ruleId}: always ${notice.effect} ${what} (undo: agenvoy rules revoke ${notice.ruleId}).`;
    }
    case 'rule_not_saved':
      return `Could not save the rule for ${visible(notice.tool)} (${visible(notice.message)}); the answer applies to this call only.`;
    case 'settled':
      return `${visible(notice.tool)}: ${notice.allowed ? 'allowed' : 'denied'} by your ${notice.by === 'chat_grant' ? 'allow-for-this-chat answer' : 'new rule'}.`;
  }
}
