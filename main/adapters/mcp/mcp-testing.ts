// Test and bench helpers for the MCP client: server-everything over stdio and HTTP, a recording and delaying
// HTTP proxy, and a manager wired to a real dispatcher stack.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessGroups, killGroup } from '../../process/process-group';
import { testCore } from '../../core/testing/test-core';
import type { McpManagerOptions } from './mcp-manager';
import { McpManager } from './mcp-manager';

const here = path.dirname(fileURLToPath(import.meta.url));

/** server-everything's entry point (pinned as a dev dependency: its tool names change between releases). */
export const EVERYTHING_BIN = path.resolve(
  here,
  '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** A fixture script of this folder. */
export function fixture(name: string): string {
  return path.join(here, 'fixtures', name);
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server-everything process in streamableHttp mode. */
export interface EverythingHttp {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts server-everything over Streamable HTTP (or the old SSE transport) on `port`; resolves once it listens. */
export async function startEverythingHttp(
  port?: number,
  mode: 'streamableHttp' | 'sse' = 'streamableHttp',
): Promise<EverythingHttp> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING_BIN, mode], {
    env: { ...process.env, PORT: String(chosen) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen: ${seen}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port|running on port/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}: ${seen}`));
    });
  });
  const url = mode === 'sse' ? `http://127.0.0.1:${chosen}/sse` : `http://127.0.0.1:${chosen}/mcp`;
  return {
    url,
    port: chosen,
    child,
    stop: async () => {
      if (child.pid && child.exitCode === null) await killGroup(child.pid, { graceMs: 200 });
    },
  };
}

/** An HTTP proxy in front of a server: records every request body and can hold a request back before forwarding. */
export interface RecordingProxy {
  url: string;
  bodies: string[];
  close(): Promise<void>;
}

/** Starts a proxy to `target`; `delayMs(body)` holds a request back that long (a silent server). */
export async function startProxy(
  target: string,
  delayMs: (body: string) => number = () => 0,
): Promise<RecordingProxy> {
  const targetUrl = new URL(target);
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      bodies.push(body.toString('utf8'));
      setTimeout(
        () => {
          const upstream = http.request(
            {
              host: targetUrl.hostname,
              port: targetUrl.port,
              path: req.url,
              method: req.method,
              headers: req.headers,
            },
            (reply) => {
              res.writeHead(reply.statusCode ?? 502, reply.headers);
              reply.pipe(res);
            },
          );
          upstream.on('error', () => res.destroy());
          res.on('close', () => upstream.destroy());
          upstream.end(body);
        },
        delayMs(body.toString('utf8')),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${targetUrl.pathname}`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A manager over a temp mcp.json, registering into a real dispatcher stack. */
export function mcpHarness(
  mcpJson: unknown,
  options: Partial<McpManagerOptions> = {},
  coreOptions: Parameters<typeof testCore>[1] = {},
) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-mcp-'));
  const configPath = path.join(home, 'mcp.json');
  fs.writeFileSync(configPath, typeof mcpJson === 'string' ? mcpJson : JSON.stringify(mcpJson, null, 2));
  const core = testCore([], coreOptions);
  const groups = new ProcessGroups();
  const manager = new McpManager({
    configPath,
    registry: core.registry,
    log: core.log,
    getSecret: async () => undefined,
    redactor: core.redactor,
    groups,
    backoff: { initialMs: 200, maxMs: 1000, maxAttempts: 20, stableMs: 60_000 },
    ...options,
  });
  const close = async (): Promise<void> => {
    await manager.stop();
    await groups.killAll();
  };
  let calls = 0;
  const dispatch = (name: string, args: Record<string, unknown>, signal?: AbortSignal) =>
    core.dispatcher.dispatch(
      { id: `call_${++calls}`, name, args },
      { chatId: 'mcp-test', workspace: home, signal },
    );
  return {
    home,
    configPath,
    core,
    groups,
    manager,
    dispatch,
    /** The state of server `name`. */
    state: (name: string) => manager.states().find((view) => view.name === name)?.state,
    close,
    /** Closes it and removes its folders (the config's and the core's): what a test's afterEach calls. */
    dispose: async () => {
      await close();
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(core.dir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it is truthy or `withinMs` passes. */
export async function waitFor<T>(
  check: () => T | undefined | null | false,
  withinMs = 10_000,
  pollMs = 25,
): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** A stdio server entry running server-everything, optionally through the stdin tap. */
export function everythingStdio(
  extra: Record<string, unknown> = {},
  tapFile?: string,
): Record<string, unknown> {
  if (!tapFile) return { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], ...extra };
  return {
    command: process.execPath,
    args: [fixture('stdin-tap.mjs'), process.execPath, EVERYTHING_BIN, 'stdio'],
    env: { MCP_TAP_FILE: tapFile },
    ...extra,
  };
}
