// The MCP channels (docs/tools.md, "MCP servers"): the servers and their states, Reconnect, and taking the changed
// definitions of trusted tools (docs/security.md, "MCP trust"). Accepting widens what runs unasked, so main shows what
// changed in its own dialog (a window of its own in the desktop app) and the chat window cannot accept by itself.
import type { InvokeChannel } from '../../preload/contract';
import { AcceptError } from '../adapters/mcp/mcp-manager';
import type { WithdrawnTool } from '../adapters/mcp/server-tools';
import { clipMarked } from '../core/clip-chars';
import type { HandlerTable, HostContext } from './host-context';
import { HostError } from './host-error';
import { requestObject, requiredString } from './request-fields';
import { shownText } from './shown-text';
import { mcpItem } from './views';

type McpChannel = Extract<InvokeChannel, 'mcp.list' | 'mcp.reconnect' | 'mcp.accept'>;

// Enough of each description to judge it; a longer one is cut with a mark. At most this many tools are told in full.
const SHOWN_DESCRIPTION = 600;
const SHOWN_TOOLS = 8;

/** The MCP handlers over the core's MCP manager. */
export function mcpHandlers(ctx: HostContext): HandlerTable<McpChannel> {
  const { core } = ctx;
  const known = (request: unknown) => {
    const name = requiredString(requestObject(request), 'name', 200);
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
      const changed = withdrawnOf(() => core.mcp.withdrawn(name));
      if (changed.length === 0)
        throw new HostError('invalid_request', `no trusted tool of "${name}" has a changed definition`);
      const accept = changed.length === 1 ? 'Trust the new definition' : 'Trust the new definitions';
      const answer = await ctx.dialogs.askUser().ask(
        '',
        [
          {
            id: 'accept',
            prompt: acceptPrompt(name, changed),
            kind: 'single',
            options: [accept, 'Keep asking'],
          },
        ],
        ctx.signal,
      );
      if (!answer.answered || answer.answers.accept !== accept)
        throw new HostError('declined', `the changed tools of "${name}" still ask: the person kept asking`);
      // What the dialog showed is what gets trusted: a definition the server changed again meanwhile is refused.
      const shown = new Map(changed.map((entry) => [entry.tool, entry.now.definition]));
      try {
        await core.mcp.accept(name, [...shown.keys()], shown);
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

// The question main asks: each tool, what changed, and its description then and now, in the server's words (quoted,
// cut) so the person reads what the model will be told. A server's text cannot pass for the app's: it is indented
// and labelled, and the dialog shows hidden characters (docs/interface.md).
function acceptPrompt(server: string, changed: readonly WithdrawnTool[]): string {
  const quote = (text: string) => JSON.stringify(clipMarked(text, SHOWN_DESCRIPTION));
  const tools = changed.slice(0, SHOWN_TOOLS).map((entry) => {
    const lines = [`• ${JSON.stringify(entry.tool)}: ${entry.reason}`];
    if (entry.pinned) lines.push(`  Trusted description: ${quote(entry.pinned.description)}`);
    lines.push(`  Description now: ${quote(entry.now.description)}`);
    lines.push(
      `  Parameters now: ${entry.now.parameters.map((p) => JSON.stringify(p)).join(', ') || '(none)'}`,
    );
    return lines.join('\n');
  });
  const more = changed.length > SHOWN_TOOLS ? [`…and ${changed.length - SHOWN_TOOLS} more tools`] : [];
  return [
    `The MCP server "${server}" changed ${changed.length === 1 ? 'a tool' : 'tools'} you trusted, so ${changed.length === 1 ? 'it asks' : 'they ask'} on every call. Trust ${changed.length === 1 ? 'it' : 'them'} as ${changed.length === 1 ? 'it is' : 'they are'} now? A tool's description tells the model what to do with it: read it first.`,
    ...tools,
    ...more,
  ].join('\n\n');
}
