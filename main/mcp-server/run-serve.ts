// Composes `agenvoy mcp serve`: a core with the script tools (watched) and the authoring helpers, served over
// stdio until the client goes away. The client is the approver (docs/security.md): it asked its user before calling,
// and is asked again (elicitation) for sensitive targets; `deny` runs only alwaysAllow tools.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Core } from '../app';
import { openRuntime } from '../runtime';
import { agenvoyHome } from '../core/paths';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { HEADLESS_APPROVAL_TIMEOUT_MS } from '../gate/confirm-gate';
import { approvalTimeoutFromEnv, createConfirmGate } from '../gate/create-gate';
import { ClientPrompter } from './client-prompter';
import type { RegisteredTool } from '../core/registry';
import type { AuthoringPort } from './authoring-tools';
import { authoringTools } from './authoring-tools';
import { guideTool } from './guide-tool';
import { serveTools } from './mcp-serve';

/** Who approves calls: the connecting client (`ask`), or nobody, so only alwaysAllow tools run (`deny`). */
export type ServeApproval = 'ask' | 'deny';

/** Options of runMcpServe. */
export interface McpServeOptions {
  home?: string;
  workspace: string;
  approve: ServeApproval;
  stdin: Readable;
  stdout: Writable;
  /** Resolves when the server should stop (a signal); the client closing stdin stops it too. */
  stop?: Promise<void>;
}

/** Serves until stdin ends, the transport closes or `stop` resolves; then closes the core. */
export async function runMcpServe(options: McpServeOptions): Promise<void> {
  // Two references stay late by nature: the authoring helpers are tools of the core they reach (through `port`, only
  // when called), and the prompter asks through the server that serves the core's tools (once it is connected).
  let core: Core | null = null;
  let server: Server | null = null;
  const port = (): AuthoringPort => {
    if (!core) throw new Error('the core is still starting');
    return {
      globalScripts: core.paths.globalScripts,
      workspace: core.workspace,
      scripts: core.scripts,
      registry: core.registry,
      dispatcher: core.dispatcher,
    };
  };
  const helpers = [guideTool(), ...authoringTools(port)];
  const helperNames = new Set(helpers.map((tool) => tool.name));
  const home = options.home ?? agenvoyHome();
  const runtime = await openRuntime({
    home,
    workspace: options.workspace,
    // The MCP host asks its own user before calling a tool, so an ordinary call is allowed; the user's rules
    // still apply, a sensitive target or a call only a person may allow is asked again through the client
    // (elicitation) and denied when it cannot ask; --approve deny refuses all but alwaysAllow tools.
    prompts: ({ redactor }) => ({
      gate: createConfirmGate({
        home,
        policy: options.approve === 'deny' ? 'deny' : 'ask',
        prompter:
          options.approve === 'deny'
            ? null
            : new ClientPrompter(
                () => server,
                (text) => redactor.redact(text),
              ),
        timeoutMs: approvalTimeoutFromEnv(process.env, HEADLESS_APPROVAL_TIMEOUT_MS),
      }),
    }),
    hostTools: helpers,
    watchScripts: true,
    mcp: 'off',
  });
  core = runtime.core;
  const exposed = (tool: RegisteredTool) =>
    tool.spec.source.kind === 'script' || helperNames.has(tool.spec.name);
  try {
    const served = await serveTools(core, new StdioServerTransport(options.stdin, options.stdout), exposed);
    server = served.server;
    core.log.info('mcp serve started', {
      approve: options.approve,
      tools: core.registry.all().filter(exposed).length,
    });
    const inputEnded = new Promise<void>((resolve) => {
      options.stdin.once('end', resolve);
      options.stdin.once('close', resolve);
    });
    await Promise.race([served.closed, inputEnded, options.stop ?? new Promise<void>(() => {})]);
    await served.close().catch(() => {});
  } finally {
    await runtime.close();
  }
}
