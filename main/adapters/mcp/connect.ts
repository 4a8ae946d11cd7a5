// Opens one MCP session: stdio in its own process group, or Streamable HTTP falling back to the older SSE
// transport; the whole handshake stays within the server's connect timeout.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RedactionPort, ToolLogger } from '../../../tools/sdk/types';
import { formatSeconds } from '../../core/abort';
import type { ProcessGroups } from '../../process/process-group';
import type { McpEndpoint } from './config-types';
import { describeExit, GroupStdioTransport } from './group-stdio-transport';
import type { HttpClientTimeouts } from './http-fetch';
import { createMcpFetch } from './http-fetch';
import { watchLateAnswers } from './late-answers';
import { GuardedOutputValidator } from './output-schema-validator';
import { plainOptions } from './request-options';

/** Which transport a session uses. */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

/** An initialised session. */
export interface McpSession {
  client: Client;
  kind: McpTransportKind;
  /** For stdio: how the process ended (`exited with code 1: <last stderr line>`), once it has. */
  exitReason: () => string | null;
  /** Whether the server was stopped on purpose and should start again at once (stdio: it ignored a cancel). */
  restartNow: () => boolean;
  /** The server process's pid (stdio only). */
  pid: number | null;
  /** Closes the client and its transport (kills a stdio server's group). */
  close: () => Promise<void>;
}

/** What opening a session needs. */
export interface ConnectOptions {
  server: string;
  /** With `$VAR` and secrets already expanded. */
  endpoint: McpEndpoint;
  /** A stdio server's command line as mcp.json wrote it (no secret values): what its process group is recorded as. */
  label?: string;
  /** Scrubs a stdio server's stderr as one stream before it is cut into lines. */
  redaction?: RedactionPort;
  connectTimeoutMs: number;
  /** HTTP client timeouts (past the call limit). */
  httpTimeouts: HttpClientTimeouts;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  groups?: ProcessGroups;
  log: ToolLogger;
  clientInfo: { name: string; version: string };
  /** Stops the attempt (quit, or a newer attempt). */
  signal?: AbortSignal;
  /** Called with the client before `initialize`, to install notification handlers. */
  prepare?: (client: Client) => void;
  /** The server sent the result of a tool call after it was cancelled, this long after (late-answers.ts). */
  onLateAnswer?: (afterMs: number) => void;
  /** stdio: restart a server that does not answer a cancelled call within the grace (default true). */
  restartOnCancel?: boolean;
}

/** Starts the server or reaches it and completes `initialize`; throws with a reason the user can act on. */
export async function connectSession(options: ConnectOptions): Promise<McpSession> {
  const deadline = Date.now() + options.connectTimeoutMs;
  const { endpoint } = options;
  switch (endpoint.kind) {
    case 'stdio': {
      const transport = new GroupStdioTransport({
        command: endpoint.command,
        args: endpoint.args,
        // Like the SDK: a small safe part of our environment, then the server's own env from mcp.json.
        env: { ...getDefaultEnvironment(), ...endpoint.env },
        cwd: options.cwd,
        groups: options.groups,
        label: options.label,
        onStderr: (line) => options.log.info('mcp server stderr', { server: options.server, line }),
        ...(options.redaction ? { stderrRedaction: options.redaction } : {}),
        onLeftOut: (note) =>
          options.log.warn('mcp server output not logged', { server: options.server, note }),
        restartOnCancel: options.restartOnCancel ?? true,
        ...(options.onLateAnswer ? { onLateAnswer: options.onLateAnswer } : {}),
      });
      const client = await initialise(transport, options, deadline);
      return {
        client,
        kind: 'stdio',
        pid: transport.pid,
        exitReason: () => (transport.exit ? describeExit(transport.exit) : null),
        restartNow: () => transport.exit?.restart === true,
        close: () => client.close(),
      };
    }
    case 'http': {
      const http = createMcpFetch(options.httpTimeouts);
      const url = new URL(endpoint.url);
      const requestInit: RequestInit = { headers: endpoint.headers };
      const streamable = () => new StreamableHTTPClientTransport(url, { fetch: http.fetch, requestInit });
      const sse = () => new SSEClientTransport(url, { fetch: http.fetch, requestInit });
      const open = (transport: Transport): Promise<Client> => initialise(transport, options, deadline);
      const session = (client: Client, kind: McpTransportKind): McpSession => ({
        client,
        kind,
        pid: null,
        exitReason: () => null,
        restartNow: () => false,
        close: async () => {
          await client.close();
          await http.close();
        },
      });
      try {
        if (endpoint.sseOnly) return session(await open(sse()), 'sse');
        try {
          return session(await open(streamable()), 'streamable-http');
        } catch (error) {
          // A server that only speaks the older SSE transport answers the POST with a 4xx.
          if (
            !(error instanceof StreamableHTTPError) ||
            error.code === undefined ||
            error.code < 400 ||
            error.code >= 500
          )
            throw error;
          if (error.code === 401 || error.code === 403) throw error;
          options.log.info('mcp server does not speak Streamable HTTP; trying SSE', {
            server: options.server,
            status: error.code,
          });
          return session(await open(sse()), 'sse');
        }
      } catch (error) {
        await http.close();
        throw error;
      }
    }
  }
}

async function initialise(transport: Transport, options: ConnectOptions, deadline: number): Promise<Client> {
  // Output schemas are compiled guarded: one tool's bad schema must not fail the server's whole tools/list.
  const client = new Client(options.clientInfo, {
    capabilities: {},
    jsonSchemaValidator: new GuardedOutputValidator(),
  });
  options.prepare?.(client);
  const left = deadline - Date.now();
  // One signal ends the attempt: the connect timeout, or the caller stopping it (quit, reconnect).
  const attempt = new AbortController();
  const timer = setTimeout(
    () => attempt.abort(new ConnectTimeoutError(options.connectTimeoutMs)),
    Math.max(0, left),
  );
  const unlink = linkAbort(options.signal, attempt);
  const ended = new Promise<never>((_, reject) => {
    attempt.signal.addEventListener('abort', () => reject(attempt.signal.reason), { once: true });
  });
  ended.catch(() => {});
  try {
    // The race also bounds transport start-up (SSE waits for its endpoint event), which takes no options.
    await Promise.race([client.connect(transport, plainOptions(left, attempt.signal)), ended]);
    // The stdio transport watches for late answers itself (GroupStdioTransport's onLateAnswer).
    if (options.onLateAnswer && !(transport instanceof GroupStdioTransport))
      watchLateAnswers(transport, options.onLateAnswer);
    return client;
  } catch (error) {
    const exit = transport instanceof GroupStdioTransport ? transport.exit : null;
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    if (attempt.signal.aborted) throw attempt.signal.reason;
    // A server that died during the handshake says why on stderr; "Connection closed" alone does not.
    if (exit) throw new Error(`the server ${describeExit(exit)} before answering initialize`);
    throw error;
  } finally {
    clearTimeout(timer);
    unlink();
  }
}

function linkAbort(parent: AbortSignal | undefined, child: AbortController): () => void {
  if (!parent) return () => {};
  const forward = () => child.abort(new Error('connection attempt stopped'));
  if (parent.aborted) forward();
  else parent.addEventListener('abort', forward, { once: true });
  return () => parent.removeEventListener('abort', forward);
}

/** The server did not complete `initialize` within its connect timeout. */
export class ConnectTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer to initialize within ${formatSeconds(timeoutMs)} (connectTimeout)`);
    this.name = 'ConnectTimeoutError';
  }
}
