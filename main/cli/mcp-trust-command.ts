// `agenvoy mcp changed` and `agenvoy mcp accept`: the trusted MCP tools whose definition changed since the person
// trusted them, and taking a changed one (docs/security.md, "MCP trust"). Such a tool asks on every call until then. A
// person typing `mcp accept` is the decision, as with `trust add`; what a server wrote (names, descriptions) reaches the
// terminal with its control sequences escaped.
import { parseArgs } from 'node:util';
import { policyGate } from '../core/gate-port';
import type { WithdrawnTool } from '../adapters/mcp/server-tools';
import { changeReport } from '../adapters/mcp/change-report';
import { AcceptError } from '../adapters/mcp/mcp-manager';
import { describeState } from '../adapters/mcp/server-state';
import type { CliIo } from './io';
import { UsageError } from './io';
import { escapeHidden } from '../../preload/contract/hidden-characters';
import { terminalText } from './terminal-text';
import { withCore } from './with-core';

/** `mcp changed [--json]`: every trusted tool whose trust is withdrawn, with what changed. */
export async function changed(argv: string[], raw: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const io = escaped(raw);
  return withCore(io, policyGate('deny'), io.cwd, async (core) => {
    // What a server wrote may repeat a secret it was given: scrubbed before it reaches the terminal.
    const say = (text: string): void => io.stdout(core.redactor.redact(text));
    const redact = (text: string) => core.redactor.redact(text);
    const views = core.mcp.states();
    const servers = views
      .map((view) => ({ server: view.name, tools: safely(() => core.mcp.withdrawn(view.name)) }))
      .filter((entry) => entry.tools.length > 0);
    // A server that did not list its tools was not judged: said, and the status says the check is incomplete.
    const unchecked = views.filter(
      (view) => view.state.status !== 'ready' && view.state.status !== 'disabled',
    );
    for (const view of unchecked)
      io.stderr(`agenvoy: ${quoted(view.name)} not checked: ${describeState(view.state)}\n`);
    if (values.json) {
      say(
        JSON.stringify(
          servers.map(({ server, tools }) => ({
            server,
            tools: tools.map((tool) => toolJson(tool, redact)),
          })),
          null,
          2,
        ) + '\n',
      );
    } else if (servers.length === 0) {
      say(
        `no trusted MCP tool has changed since it was trusted${unchecked.length > 0 ? ' (of the servers checked)' : ''}\n`,
      );
    } else {
      for (const { server, tools } of servers) for (const tool of tools) say(described(server, tool, redact));
      say('accept one after reading it: agenvoy mcp accept SERVER TOOL@ID\n');
    }
    return unchecked.length > 0 ? 1 : 0;
  });
}

/**
 * `mcp accept SERVER TOOL@ID... [--json]`: trusts the named tools' definitions, each only if it is still the one `mcp
 * changed` showed under that id. Every run of the CLI starts the server afresh, so a server could show one definition
 * to `mcp changed` and another to `mcp accept`: the id is what ties the accept to what the person read.
 */
export async function accept(argv: string[], raw: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  const [server, ...named] = positionals;
  if (!server || named.length === 0)
    throw new UsageError(
      'mcp accept needs a server and each tool with the id `agenvoy mcp changed` shows: agenvoy mcp accept SERVER TOOL@ID...',
    );
  const shown = new Map<string, string>();
  for (const item of named) {
    const at = item.lastIndexOf('@');
    if (at <= 0 || !/^[0-9a-f]{16,32}$/.test(item.slice(at + 1)))
      throw new UsageError(
        `${JSON.stringify(item)} is not TOOL@ID: run agenvoy mcp changed and copy the tool's id (16 or more hex digits)`,
      );
    shown.set(item.slice(0, at), item.slice(at + 1));
  }
  const io = escaped(raw);
  return withCore(io, policyGate('deny'), io.cwd, async (core) => {
    const say = (text: string): void => io.stdout(core.redactor.redact(text));
    let accepted: WithdrawnTool[];
    try {
      accepted = await core.mcp.accept(server, shown);
    } catch (error) {
      if (!(error instanceof AcceptError)) throw error;
      io.stderr(`agenvoy: ${error.message}\n`);
      return 1;
    }
    const redact = (text: string) => core.redactor.redact(text);
    if (values.json)
      say(
        JSON.stringify({ server, accepted: accepted.map((tool) => toolJson(tool, redact)) }, null, 2) + '\n',
      );
    else for (const tool of accepted) say(`accepted: ${described(server, tool, redact)}`);
    return 0;
  });
}

// Everything an accept takes, for a program or a person to read whole: the definition now, secrets scrubbed.
function toolJson(tool: WithdrawnTool, redact: (text: string) => string) {
  return {
    tool: tool.tool,
    id: idOf(tool),
    kind: tool.kind,
    reason: tool.reason,
    trusted: tool.pinned && {
      description: tool.pinned.description,
      parameters: tool.pinned.parameters,
      pinnedAt: tool.pinned.pinnedAt,
    },
    now: { description: tool.now.description, parameters: tool.now.parameters },
    definition: JSON.parse(redact(JSON.stringify(tool.definition))) as unknown,
  };
}

// The id `mcp accept` takes: the first 16 hex digits of the definition's hash.
function idOf(tool: WithdrawnTool): string {
  return tool.now.definition.slice(0, 16);
}

// What a server wrote, quoted as JSON (line breaks and quotes escaped) with bidi and zero-width characters shown, so
// no line of it can pass for one of ours.
const quoted = (text: string) => escapeHidden(JSON.stringify(text));

// Each changed part in full (change-report.ts), as main's question shows it: what the id accepts is all shown.
function described(server: string, tool: WithdrawnTool, redact: (text: string) => string): string {
  const head = `${quoted(server)} ${quoted(tool.tool)}@${idOf(tool)}: ${escapeHidden(tool.reason)}`;
  const parts = changeReport(tool, redact).lines.map((line) => `  ${escapeHidden(line)}`);
  return [head, ...parts].join('\n') + '\n';
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
