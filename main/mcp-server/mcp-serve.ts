// `agenvoy mcp serve`: an MCP server over one transport that offers a chosen part of the registry. Calls run
// through our dispatcher (validation, gate, limits, redaction); the registry's changes become tools/list_changed.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolLogger } from '../../tools/sdk/types';
import type { Dispatcher } from '../core/dispatcher';
import type { RegisteredTool, ToolRegistry } from '../core/registry';
import { brokenMessage } from '../core/tool-broken';
import { errorResult, outcomeToResult } from './outcome-result';

/** How long registry changes settle before one tools/list_changed goes out. */
export const LIST_CHANGED_DEBOUNCE_MS = 100;

/** What the server needs from the core. */
export interface ServeCore {
  registry: Pick<ToolRegistry, 'all' | 'get' | 'entry' | 'onChange'>;
  dispatcher: Pick<Dispatcher, 'dispatch' | 'on'>;
  workspace: string;
  log: ToolLogger;
}

/** A running server; `closed` resolves when the transport closes. */
export interface ServedTools {
  server: Server;
  closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves the registry tools for which `exposed` is true over `transport`. */
export async function serveTools(
  core: ServeCore,
  transport: Transport,
  exposed: (tool: RegisteredTool) => boolean,
  info: { name: string; version: string } = { name: 'agenvoy', version: '0.1.0' },
): Promise<ServedTools> {
  const server = new Server(info, {
    capabilities: { tools: { listChanged: true } },
    instructions:
      'Agenvoy script tools and helpers to write them: read tool_generate_guide before creating a tool.',
  });
  let calls = 0;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: core.registry.all().filter(exposed).map(toMcpTool),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const tool = core.registry.get(name);
    const broken = tool ? undefined : core.registry.entry(name);
    if (broken?.broken && exposed(broken)) return errorResult(brokenMessage(name, broken.broken));
    if (!tool || !exposed(tool))
      return errorResult(`unknown tool "${name}": tools/list shows what this server offers`);
    const id = `mcp_${++calls}`;
    const token = request.params._meta?.progressToken;
    let step = 0;
    const unsubscribe =
      token === undefined
        ? () => {}
        : core.dispatcher.on((event) => {
            if (event.type !== 'call.progress' || event.callId !== id) return;
            step += 1;
            const { update } = event;
            const message = update.message ?? update.output?.trimEnd().split('\n').at(-1);
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress: update.progress ?? step,
                  ...(update.total === undefined ? {} : { total: update.total }),
                  ...(message ? { message } : {}),
                },
              })
              .catch(() => {});
          });
    try {
      const outcome = await core.dispatcher.dispatch(
        { id, name, args: request.params.arguments ?? {} },
        // The client's cancel (notifications/cancelled) aborts extra.signal, which cancels the call.
        { chatId: 'mcp-serve', workspace: core.workspace, signal: extra.signal },
      );
      return outcomeToResult(outcome);
    } finally {
      unsubscribe();
    }
  });

  let timer: NodeJS.Timeout | undefined;
  const unwatch = core.registry.onChange((change) => {
    if (!exposed(change.tool) && !(change.type === 'replaced' && exposed(change.previous))) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      server
        .sendToolListChanged()
        .catch((error: unknown) => core.log.warn('tools/list_changed not sent', { error }));
    }, LIST_CHANGED_DEBOUNCE_MS);
  });

  const closed = new Promise<void>((resolve) => {
    server.onclose = () => {
      clearTimeout(timer);
      unwatch();
      resolve();
    };
  });
  await server.connect(transport);
  return { server, closed, close: () => server.close() };
}

function toMcpTool(tool: RegisteredTool): Tool {
  const { spec } = tool;
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: { type: 'object', ...spec.parameters } as Tool['inputSchema'],
    // alwaysAllow is reserved for read-only tools (docs/tools.md, "Behaviour flags"), so it is the honest readOnlyHint.
    annotations: { readOnlyHint: spec.flags.alwaysAllow },
  };
}
