// An MCP server's tool as a registry entry: flags from annotations and the user's trust, the server's limit,
// and a handler that calls the server with the dispatch budget (docs/dispatch.md, "MCP requests"; docs/security.md, "Nothing skips the gate"; docs/tools.md, "MCP servers").
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema, ToolSpec } from '../../../tools/sdk/types';
import type { ErrorContext } from './call-errors';
import { mapCallError } from './call-errors';
import { toToolResult } from './call-result';
import type { McpTrust } from './config-types';
import { callOptions } from './request-options';
import { callAbortOf } from '../../core/call-abort';

/** What the tools of one server share. */
export interface McpToolDeps extends ErrorContext {
  timeoutMs: number;
  trust: McpTrust;
  /** The live client; throws a ToolError saying why when the server is not ready. */
  client: () => Client;
  /** Resolves once the server's announced tool-list changes are applied (see ToolSpec.settled). */
  settled?: () => Promise<void> | undefined;
  /** A stdio server's working folder, where it reads a relative path from (ToolSpec.pathsFrom). */
  pathsFrom?: string;
}

/** The ToolSpec of `tool`, registered as `name`; the server's own name is used on the wire. */
export function mcpToolSpec(tool: Tool, name: string, deps: McpToolDeps): ToolSpec {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const trusted = isTrusted(deps.trust, tool.name, readOnly);
  return {
    name,
    description: tool.description ?? tool.title ?? '',
    parameters: tool.inputSchema as JsonSchema,
    source: { kind: 'mcp', server: deps.server, remoteName: tool.name },
    flags: {
      // Annotations are hints from an untrusted server: they never skip the gate on their own,
      alwaysAllow: trusted,
      // nor run calls in parallel: that needs the read-only hint AND the person's trust in mcp.json (docs/tools.md, "Behaviour flags").
      concurrent: readOnly && trusted,
      background: false,
      systemUse: false,
    },
    timeoutMs: deps.timeoutMs,
    ...(deps.settled ? { settled: deps.settled } : {}),
    ...(deps.pathsFrom ? { pathsFrom: deps.pathsFrom } : {}),
    // The server's `${secret:NAME}` references, all resolved once it connected (its tools exist only then).
    secrets: () => deps.credentialKeys,
    // Chained, not awaited: every MCP call runs this, and an async function's frame is most of what it allocates.
    handler: (args, ctx) => {
      const failed = (error: unknown): never => {
        // Once the call's signal fired, the dispatcher reports timed_out or cancelled by itself.
        const cancel = callAbortOf(ctx) ?? ctx.signal;
        if (cancel.aborted) throw cancel.reason;
        throw mapCallError(error, deps);
      };
      let client: Client;
      try {
        client = deps.client();
      } catch (error) {
        // Not ready: the ToolError saying why, as it is.
        return Promise.reject(error);
      }
      return client
        .callTool({ name: tool.name, arguments: args }, undefined, callOptions(ctx))
        .then((result) => {
          try {
            return toToolResult(result as Parameters<typeof toToolResult>[0]);
          } catch (error) {
            return failed(error);
          }
        }, failed);
    },
  };
}

/** Whether the user's trust setting exempts this tool from the confirm gate (docs/security.md, "Nothing skips the gate"). */
export function isTrusted(trust: McpTrust, remoteName: string, readOnly: boolean): boolean {
  switch (trust.kind) {
    case 'none':
      return false;
    case 'read-only':
      return readOnly;
    case 'tools':
      return trust.tools.includes(remoteName);
  }
}
