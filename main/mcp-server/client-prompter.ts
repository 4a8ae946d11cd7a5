// The approval prompter of `agenvoy mcp serve` (docs/security.md): the connecting MCP client asked its user before
// it called, so an ordinary call is allowed; a call that touches a sensitive target, or that only a person's
// decision for this very call may allow, is asked again through MCP elicitation, and denied when the client
// cannot ask its user.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { foldArgs, visible } from '../gate/format-request';
import type { ApprovalPrompter, PromptChoice, PromptItem, PromptSession } from '../gate/prompter-port';

/** Most characters of a call's arguments shown in the question: past it, their start and their end. */
const ARGS_CHARS = 8000;

// The SDK's own request limit (60 s) would cut a person off mid-thought; the session's time-out applies instead.
const NO_LIMIT_MS = 2 ** 31 - 1;

/** Why an item must be put to a person now, or null when the client's own approval covers it. */
export function personQuestion(item: PromptItem): string | null {
  if (item.sensitive) return `it touches ${item.sensitive}, which always asks`;
  if (item.personOnly) return `it ${item.personOnly}, which only a person's decision for this call allows`;
  return null;
}

/** Answers the gate's prompts for `mcp serve` through the client connected to `server()`. */
export class ClientPrompter implements ApprovalPrompter {
  constructor(
    private readonly server: () => Server | null,
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  async prompt(session: PromptSession): Promise<void> {
    const asks: Array<{ index: number; item: PromptItem; why: string }> = [];
    // The client's approval first: ordinary calls are settled before any question can fail.
    for (const [index, item] of session.items.entries()) {
      const why = personQuestion(item);
      if (why) asks.push({ index, item, why });
      else if (session.isPending(index)) await session.answer(index, { kind: 'allow_once' });
    }
    if (asks.length === 0) return;
    const server = this.server();
    if (!server?.getClientCapabilities()?.elicitation?.form) {
      // Headless: nobody can be asked, so these calls are denied, saying why.
      throw new Error(
        asks.map(({ item, why }) => `${item.request.tool} needs a person's decision (${why})`).join('; ') +
          ', and this MCP client cannot ask its user (it does not support elicitation)',
      );
    }
    for (const { index, item, why } of asks) {
      if (!session.isPending(index) || session.signal.aborted) continue;
      await session.answer(index, await this.ask(server, item, why, session));
    }
  }

  notify(): void {
    // Nothing to show: the client sees each call's outcome.
  }

  private async ask(
    server: Server,
    item: PromptItem,
    why: string,
    session: PromptSession,
  ): Promise<PromptChoice> {
    const shown = shownArgs(item.request.args, this.redact);
    const result = await server.elicitInput(
      {
        mode: 'form',
        message: `Agenvoy: allow ${visible(item.request.tool)} once? ${visible(why)}.\nArguments:\n${shown}`,
        requestedSchema: {
          type: 'object',
          properties: {
            decision: {
              type: 'string',
              title: 'Decision',
              enum: ['allow', 'deny'],
              enumNames: ['Allow this call once', 'Deny'],
            },
          },
          required: ['decision'],
        },
      },
      { signal: session.signal, timeout: session.timeoutMs ?? NO_LIMIT_MS },
    );
    if (result.action === 'accept' && result.content?.decision === 'allow') return { kind: 'allow_once' };
    const reason =
      result.action === 'accept'
        ? 'denied in the MCP client'
        : result.action === 'decline'
          ? 'declined in the MCP client'
          : 'the question was dismissed in the MCP client';
    return { kind: 'deny', reason };
  }
}

// The arguments as the question shows them (docs/security.md, "What the person sees"): redacted, hidden characters
// escaped, each long string folded around a note with its end kept, as the terminal prompt shows them; past
// ARGS_CHARS their start and their end with a note between. A plain cut let padding push what a call really does
// past what the person saw (main/mcp-server/elicitation-cut-attack.test.ts).
function shownArgs(args: Record<string, unknown>, redact: (text: string) => string): string {
  const json = redact(JSON.stringify(args) ?? '{}');
  let redacted: unknown;
  try {
    redacted = JSON.parse(json);
  } catch {
    redacted = json;
  }
  const { text, folded } = foldArgs(redacted);
  const note = folded ? '\n(long values are folded: their start and end are shown)' : '';
  if (text.length <= ARGS_CHARS) return text + note;
  const head = text.slice(0, ARGS_CHARS - 2000);
  const tail = text.slice(-1500);
  const cut = (text.length - head.length - tail.length).toLocaleString('en-US');
  return `${head}\n… [${cut} characters of the arguments not shown] …\n${tail}${note}`;
}
