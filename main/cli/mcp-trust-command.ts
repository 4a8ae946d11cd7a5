// `agenvoy mcp changed` and `agenvoy mcp accept`: the trusted MCP tools whose definition changed since the person
// trusted them, and taking a changed one (docs/security.md, "MCP trust"). Such a tool asks on every call until then. A
// person typing `mcp accept` is the decision, as with `trust add`; what a server wrote (names, descriptions) reaches the
// terminal with its control sequences escaped.
import { parseArgs } from 'node:util';
import { policyGate } from '../core/gate-port';
import type { WithdrawnTool } from '../adapters/mcp/server-tools';
import { AcceptError } from '../adapters/mcp/mcp-manager';
import type { CliIo } from './io';
import { UsageError } from './io';
import { terminalText } from './terminal-text';
import { withCore } from './with-core';

/** `mcp changed [--json]`: every trusted tool whose trust is withdrawn, with what changed. */
export async function changed(argv: string[], raw: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const io = escaped(raw);
  return withCore(io, policyGate('deny'), io.cwd, async (core) => {
    const servers = core.mcp
      .states()
      .map((view) => ({ server: view.name, tools: safely(() => core.mcp.withdrawn(view.name)) }))
      .filter((entry) => entry.tools.length > 0);
    if (values.json) {
      io.stdout(
        JSON.stringify(
          servers.map(({ server, tools }) => ({ server, tools: tools.map(toolJson) })),
          null,
          2,
        ) + '\n',
      );
    } else if (servers.length === 0) {
      io.stdout('no trusted MCP tool has changed since it was trusted\n');
    } else {
      for (const { server, tools } of servers) for (const tool of tools) io.stdout(shown(server, tool));
      io.stdout('accept one after reading it: agenvoy mcp accept SERVER TOOL\n');
    }
    return 0;
  });
}

/** `mcp accept SERVER [TOOL...] [--json]`: trusts the named tools' (default: all changed ones') definitions now. */
export async function accept(argv: string[], raw: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  const [server, ...tools] = positionals;
  if (!server) throw new UsageError('mcp accept needs a server name: agenvoy mcp accept SERVER [TOOL...]');
  const io = escaped(raw);
  return withCore(io, policyGate('deny'), io.cwd, async (core) => {
    let accepted: WithdrawnTool[];
    try {
      accepted = await core.mcp.accept(server, tools.length > 0 ? tools : undefined);
    } catch (error) {
      if (!(error instanceof AcceptError)) throw error;
      io.stderr(`agenvoy: ${error.message}\n`);
      return 1;
    }
    if (values.json) io.stdout(JSON.stringify({ server, accepted: accepted.map(toolJson) }, null, 2) + '\n');
    else for (const tool of accepted) io.stdout(`accepted: ${shown(server, tool)}`);
    return 0;
  });
}

function toolJson(tool: WithdrawnTool) {
  return {
    tool: tool.tool,
    reason: tool.reason,
    trusted: tool.pinned && {
      description: tool.pinned.description,
      parameters: tool.pinned.parameters,
      pinnedAt: tool.pinned.pinnedAt,
    },
    now: { description: tool.now.description, parameters: tool.now.parameters },
  };
}

function shown(server: string, tool: WithdrawnTool): string {
  const lines = [`${server} ${JSON.stringify(tool.tool)}: ${tool.reason}`];
  if (tool.pinned) {
    lines.push(`  trusted description: ${tool.pinned.description}`);
    lines.push(`  trusted parameters:  ${tool.pinned.parameters.join(', ') || '(none)'}`);
  }
  lines.push(`  description now:     ${tool.now.description}`);
  lines.push(`  parameters now:      ${tool.now.parameters.join(', ') || '(none)'}`);
  return lines.join('\n') + '\n';
}

function safely(list: () => WithdrawnTool[]): WithdrawnTool[] {
  try {
    return list();
  } catch (error) {
    if (error instanceof AcceptError) return [];
    throw error;
  }
}

function escaped(raw: CliIo): CliIo {
  return {
    ...raw,
    stdout: (text) => raw.stdout(terminalText(text)),
    stderr: (text) => raw.stderr(terminalText(text)),
  };
}
