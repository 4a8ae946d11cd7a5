// One connection attempt for a configured server: expand its variables and secrets, open the session within
// the connect timeout, and list its tools within what is left of that timeout.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RedactionPort, ToolLogger } from '../../../tools/sdk/types';
import type { ProcessGroups } from '../../process/process-group';
import type { McpServerConfig } from './config-types';
import type { McpSession } from './connect';
import { connectSession } from './connect';
import type { SecretResolver } from './expand-vars';
import { expandEndpoint } from './expand-vars';
import type { HttpClientTimeouts } from './http-fetch';
import type { ToolListing } from './list-tools';
import { listAllTools } from './list-tools';

/** What an attempt needs from the host. */
export interface SessionDeps {
  log: ToolLogger;
  getSecret: SecretResolver;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  groups?: ProcessGroups;
  httpTimeouts: (limitMs: number) => HttpClientTimeouts;
  clientInfo: { name: string; version: string };
  /** Scrubs a stdio server's stderr as one stream, before it is cut into the log's lines (a key wrapped over two). */
  redaction?: RedactionPort;
}

/** Hooks of one attempt. */
export interface AttemptHooks {
  signal: AbortSignal;
  /** Installs notification and close handlers before `initialize`. */
  prepare: (client: Client) => void;
  onSecret: (name: string, value: string) => void;
  onUnsetVar: (name: string) => void;
  /** The server finished a call after it was cancelled (connect.ts). */
  onLateAnswer?: (afterMs: number) => void;
}

/** Opens a session and lists its tools; on any failure the session is closed and the error thrown. */
export async function openSession(
  config: McpServerConfig,
  deps: SessionDeps,
  hooks: AttemptHooks,
): Promise<{ session: McpSession; tools: ToolListing }> {
  const endpoint = await expandEndpoint(config.endpoint, {
    env: deps.env,
    getSecret: deps.getSecret,
    onSecret: hooks.onSecret,
    onUnsetVar: hooks.onUnsetVar,
  });
  const started = Date.now();
  const session = await connectSession({
    server: config.name,
    endpoint,
    // docs/secrets.md: the record of the server's process group is persisted, so it shows `${secret:NAME}`, not the value.
    label:
      config.endpoint.kind === 'stdio'
        ? [config.endpoint.command, ...config.endpoint.args].join(' ')
        : undefined,
    connectTimeoutMs: config.connectTimeoutMs,
    httpTimeouts: deps.httpTimeouts(config.timeoutMs),
    env: deps.env,
    cwd: deps.cwd,
    groups: deps.groups,
    log: deps.log,
    clientInfo: deps.clientInfo,
    signal: hooks.signal,
    prepare: hooks.prepare,
    onLateAnswer: hooks.onLateAnswer,
    restartOnCancel: config.restartOnCancel,
    redaction: deps.redaction,
  });
  try {
    return {
      session,
      tools: await listAllTools(session.client, config.connectTimeoutMs - (Date.now() - started)),
    };
  } catch (error) {
    await session.close().catch(() => {});
    throw error;
  }
}
