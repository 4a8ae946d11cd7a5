// What plain `agenvoy chat` (no --json) prints: the answer on stdout, each round's text on a line of its own, and on
// stderr the tool calls, notices and the text of subagents, each line of a subagent labelled so it never reads as
// the answer. Everything a model, a subagent or a tool wrote reaches the terminal with its control characters shown
// as escapes (`terminalText`): a steered model must not set the clipboard, plant a hyperlink or repaint the screen.
import type { ChatEvent, GateEventView } from '../../preload/contract';
import type { CliIo } from './io';
import { humanDuration } from './human-text';
import { terminalText } from './terminal-text';

/** Prints one turn's events for a person at a terminal. */
export class PlainChatPrinter {
  private topChat: string | null = null;
  // The message whose text stdout last showed, and whether stdout ends a line.
  private answerMessage: number | null = null;
  private answerAtLineStart = true;
  // A subagent's text waits for its line to end, so lines of subagents running side by side never mix.
  private readonly pending = new Map<string, string>();

  // Everything printed here was written by a model, a tool or a server: printed with its control characters escaped.
  private readonly io: Pick<CliIo, 'stdout' | 'stderr'>;

  constructor(
    io: CliIo,
    /** The title of a chat (a subagent's child chat is titled `↳ <task title>`). */
    private readonly titleOf: (chatId: string) => string | undefined,
  ) {
    this.io = {
      stdout: (text) => io.stdout(terminalText(text)),
      stderr: (text) => io.stderr(terminalText(text)),
    };
  }

  /** The chat whose text is the answer; every other chat's text is a subagent's. */
  answerChat(chatId: string): void {
    this.topChat = chatId;
  }

  /** Prints one event. */
  print(event: ChatEvent | GateEventView): void {
    switch (event.type) {
      case 'text.delta':
        if (event.chatId === this.topChat) this.answerText(event.messageId, event.delta);
        else this.subagentText(event.chatId, event.delta);
        break;
      case 'message.finished':
      case 'turn.finished':
        if (event.chatId !== this.topChat) this.flush(event.chatId);
        break;
      case 'call.started':
        this.io.stderr(
          `\n${this.label(event.chatId)}[tool ${terminalText(event.tool)} started${event.limitMs ? `, limit ${humanDuration(event.limitMs)}` : ''}]\n`,
        );
        break;
      case 'call.finished': {
        const { outcome } = event;
        const said =
          outcome.outcome === 'ok'
            ? 'ok'
            : // The message may already say how it ended (`denied: …`, `timed out after …`): say it once.
              outcome.message.toLowerCase().startsWith(outcome.outcome.replace('_', ' '))
              ? outcome.message
              : `${outcome.outcome} — ${outcome.message}`;
        this.io.stderr(
          `${this.label(event.chatId)}[tool ${terminalText(event.tool)}: ${terminalText(said)}]\n`,
        );
        break;
      }
      case 'notice':
        this.io.stderr(`${this.label(event.chatId)}[${event.level}] ${terminalText(event.message)}\n`);
        break;
      default:
        break;
    }
  }

  /** Ends the answer's last line and prints what subagents left unfinished. */
  end(): void {
    for (const chatId of [...this.pending.keys()]) this.flush(chatId);
    if (!this.answerAtLineStart) this.io.stdout('\n');
    this.answerAtLineStart = true;
  }

  private answerText(messageId: number, raw: string): void {
    const delta = terminalText(raw);
    if (delta === '') return;
    // A new round's text starts on a line of its own instead of running on from the last round's.
    if (this.answerMessage !== null && messageId !== this.answerMessage && !this.answerAtLineStart)
      this.io.stdout('\n');
    this.answerMessage = messageId;
    this.io.stdout(delta);
    this.answerAtLineStart = delta.endsWith('\n');
  }

  private subagentText(chatId: string, delta: string): void {
    const text = (this.pending.get(chatId) ?? '') + terminalText(delta);
    const cut = text.lastIndexOf('\n');
    if (cut === -1) {
      this.pending.set(chatId, text);
      return;
    }
    this.pending.set(chatId, text.slice(cut + 1));
    for (const line of text.slice(0, cut).split('\n')) this.io.stderr(`${this.label(chatId)}${line}\n`);
  }

  private flush(chatId: string): void {
    const rest = this.pending.get(chatId);
    this.pending.delete(chatId);
    if (rest) this.io.stderr(`${this.label(chatId)}${rest}\n`);
  }

  // '' for the answer's chat; `  [subagent <task>] ` for a child chat.
  private label(chatId: string): string {
    if (this.topChat === null || chatId === this.topChat) return '';
    const title = terminalText((this.titleOf(chatId) ?? chatId).replace(/^↳\s*/, '').replace(/\n/g, ' '));
    return `  [subagent ${title}] `;
  }
}
