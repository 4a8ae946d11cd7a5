// The MCP channels (docs/tools.md, "MCP servers"): the servers and their states, Reconnect, and taking the changed
// definitions of trusted tools (docs/security.md, "MCP trust"). Accepting widens what runs unasked, so main shows what
// changed in its own dialog (a window of its own in the desktop app) and the chat window cannot accept by itself.
import type { InvokeChannel } from '../../preload/contract';
import { changeReport } from '../adapters/mcp/change-report';
import { AcceptError } from '../adapters/mcp/mcp-manager';
import type { WithdrawnTool } from '../adapters/mcp/server-tools';
import type { HandlerTable, HostContext } from './host-context';
import { HostError } from './host-error';
import { requestObject, requiredString } from './request-fields';
import { shownText } from './shown-text';
import { mcpItem } from './views';

type McpChannel = Extract<InvokeChannel, 'mcp.list' | 'mcp.reconnect' | 'mcp.accept'>;

// Enough of each changed part to judge it; a longer one is cut with a mark. At most this many tools in one question.
const SHOWN_PART = 2500;
const SHOWN_TOOLS = 4;

/** The MCP handlers over the core's MCP manager. */
export function mcpHandlers(ctx: HostContext): HandlerTable<McpChannel> {
  const { core } = ctx;
  const known = (request: unknown) => {
    const name = requiredString(requestObject(request), 'name', 1024);
    const view = core.mcp.states().find((server) => server.name === name);
    if (!view) throw new HostError('not_found', `no MCP server named "${name}"`);
    return { name, view };
  };
  const now = (name: string) => core.mcp.states().find((server) => server.name === name);
  return {
    'mcp.list': () => ({
      servers: core.mcp.states().map(mcpItem),
      problems: core.mcp.problems().map(shownText),
    }),
    'mcp.reconnect': async (request) => {
      const { name, view } = known(request);
      try {
        await core.mcp.reconnect(name);
      } catch (error) {
        throw new HostError('unavailable', (error as Error).message);
      }
      return mcpItem(now(name) ?? view);
    },
    'mcp.accept': async (request) => {
      const { name, view } = known(request);
      const redact = (text: string) => core.redactor.redact(text);
      const withdrawn = withdrawnOf(() => core.mcp.withdrawn(name));
      // A damaged record is fixed by the person, not accepted over: said before anything is asked.
      const damaged = withdrawn.find((entry) => entry.kind === 'damaged');
      if (damaged) throw new HostError('invalid_request', damaged.reason);
      const changed = withdrawn.filter((entry) => entry.kind === 'changed');
      if (changed.length === 0)
        throw new HostError('invalid_request', `no trusted tool of "${name}" has a changed definition`);
      // Only what the question shows is accepted; the rest stay asking for the next review.
      const shown = changed.slice(0, SHOWN_TOOLS);
      // A changed part too long to show whole here is not accepted unread: the CLI shows it in full.
      const long = shown.find((entry) => changeReport(entry, redact, SHOWN_PART).cut);
      if (long)
        throw new HostError(
          'invalid_request',
          `the new definition of ${JSON.stringify(long.tool)} is too long to review here: read it with ` +
            '`agenvoy mcp changed --json`, then accept it with `agenvoy mcp accept`',
        );
      const accept = shown.length === 1 ? 'Trust the new definition' : 'Trust the new definitions';
      const answer = await ctx.dialogs.askUser().ask(
        '',
        [
          {
            id: 'accept',
            prompt: acceptPrompt(name, shown, changed.length, redact),
            kind: 'single',
            options: [accept, 'Keep asking'],
          },
        ],
        ctx.signal,
      );
      if (!answer.answered || answer.answers.accept !== accept)
        throw new HostError('declined', `the changed tools of "${name}" still ask: the person kept asking`);
      // What the question showed is what gets trusted: a definition the server changed again meanwhile is refused.
      try {
        await core.mcp.accept(name, new Map(shown.map((entry) => [entry.tool, entry.now.definition])));
      } catch (error) {
        if (error instanceof AcceptError) throw new HostError('invalid_request', error.message);
        throw error;
      }
      return mcpItem(now(name) ?? view);
    },
  };
}

function withdrawnOf(list: () => WithdrawnTool[]): WithdrawnTool[] {
  try {
    return list();
  } catch (error) {
    if (error instanceof AcceptError) throw new HostError('unavailable', error.message);
    throw error;
  }
}

// The question main asks: each tool, what changed, and what it is now in the server's words, every changed part in
// full up to a cut that says so, so the person reads what the model will be told and what the tool takes. A server's
// text cannot pass for the app's: it is quoted as JSON and labelled, and the dialog shows hidden characters.
function acceptPrompt(
  server: string,
  shown: readonly WithdrawnTool[],
  total: number,
  redact: (text: string) => string,
): string {
  const tools = shown.map((entry) =>
    [
      `• ${JSON.stringify(entry.tool)}: ${entry.reason}`,
      ...changeReport(entry, redact, SHOWN_PART).lines.map((line) => `  ${line}`),
    ].join('\n'),
  );
  const rest = total - shown.length;
  const one = shown.length === 1;
  return [
    `The MCP server "${server}" changed ${one ? 'a tool' : 'tools'} you trusted, so ${one ? 'it asks' : 'they ask'} on every call. Trust ${one ? 'it' : 'these'} as ${one ? 'it is' : 'they are'} now? A tool's description and parameters tell the model what to do with it: read them first.`,
    ...tools,
    ...(rest > 0
      ? [`${rest} more changed ${rest === 1 ? 'tool asks' : 'tools ask'} still: review again after this.`]
      : []),
  ].join('\n\n');
}
