// Reads mcp.json (docs/tools.md, "MCP servers"): a wrong field fails only its own server, with a reason naming file, server and field.
import fs from 'node:fs/promises';
import type { McpConfigFile, McpServerConfig, McpServerEntry, McpTrust } from './config-types';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS } from './config-types';

const SERVER_KEYS = new Set([
  'command',
  'args',
  'env',
  'url',
  'headers',
  'timeout',
  'connectTimeout',
  'disabled',
  'trust',
  'type',
]);
const TOP_KEYS = new Set(['servers', 'mcpServers']);
// A day is far past any sensible call and well inside setTimeout's 2^31-1 ms.
const MAX_SECONDS = 24 * 60 * 60;

/** Reads and parses the mcp.json at `file`; a missing file means no servers. */
export async function readMcpConfig(file: string): Promise<McpConfigFile> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { file, servers: [], error: null, warnings: [] };
    return { file, servers: [], error: `${file}: cannot read: ${(error as Error).message}`, warnings: [] };
  }
  return parseMcpConfig(text, file);
}

/** Parses the text of an mcp.json (`{"servers": …}` or the Claude-Desktop form `{"mcpServers": …}`). */
export function parseMcpConfig(text: string, file: string): McpConfigFile {
  const result: McpConfigFile = { file, servers: [], error: null, warnings: [] };
  if (text.trim() === '') return result;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ...result, error: `${file}: malformed JSON: ${(error as Error).message}` };
  }
  if (!isObject(raw))
    return { ...result, error: `${file}: must hold a JSON object with "servers" (or "mcpServers")` };
  for (const key of Object.keys(raw)) {
    if (!TOP_KEYS.has(key)) result.warnings.push(`${file}: unknown key "${key}" ignored`);
  }
  const blocks = (['servers', 'mcpServers'] as const).filter((key) => raw[key] !== undefined);
  const names = new Set<string>();
  for (const key of blocks) {
    const block = raw[key];
    if (!isObject(block)) {
      result.error = `${file}: "${key}" must be an object mapping server names to their settings`;
      return { ...result, servers: [] };
    }
    for (const [name, value] of Object.entries(block)) {
      if (names.has(name)) {
        result.warnings.push(
          `${file}: server "${name}" appears in both "servers" and "mcpServers"; the first is used`,
        );
        continue;
      }
      names.add(name);
      result.servers.push(parseServer(name, value, file));
    }
  }
  return result;
}

function parseServer(name: string, raw: unknown, file: string): McpServerEntry {
  const where = `${file}: server "${name}"`;
  const warnings: string[] = [];
  const fail = (reason: string): McpServerEntry => ({
    ok: false,
    name,
    reason: `${where}: ${reason}`,
    disabled: isObject(raw) && raw.disabled === true,
    warnings,
  });
  if (name.trim() === '') return fail('a server needs a non-empty name');
  if (!isObject(raw)) return fail('must be an object with "command" or "url"');
  for (const key of Object.keys(raw)) {
    if (!SERVER_KEYS.has(key)) warnings.push(`${where}: unknown key "${key}" ignored`);
  }
  const { command, args, env, url, headers, timeout, connectTimeout, disabled, trust, type } = raw;
  const problem =
    optional(command, 'command', isNonEmptyString, 'a non-empty string') ??
    optional(args, 'args', isStringArray, 'an array of strings') ??
    optional(env, 'env', isStringMap, 'an object of string values') ??
    optional(url, 'url', isNonEmptyString, 'a non-empty string') ??
    optional(headers, 'headers', isStringMap, 'an object of string values') ??
    optional(timeout, 'timeout', isSeconds, `a number of seconds above 0 and at most ${MAX_SECONDS}`) ??
    optional(
      connectTimeout,
      'connectTimeout',
      isSeconds,
      `a number of seconds above 0 and at most ${MAX_SECONDS}`,
    ) ??
    optional(disabled, 'disabled', isBoolean, 'true or false') ??
    optional(trust, 'trust', isTrust, 'true, false or an array of tool names') ??
    optional(type, 'type', isTransportType, '"stdio", "http", "streamable-http" or "sse"');
  if (problem) return fail(problem);
  if (command === undefined && url === undefined) return fail('needs "command" (stdio) or "url" (HTTP)');
  if (command !== undefined && url !== undefined) return fail('has both "command" and "url"; give one');
  if (
    command !== undefined &&
    (headers !== undefined || type === 'sse' || type === 'http' || type === 'streamable-http')
  ) {
    return fail('"headers" and an HTTP "type" need "url", not "command"');
  }
  if (url !== undefined && (args !== undefined || env !== undefined || type === 'stdio')) {
    return fail('"args", "env" and "type": "stdio" need "command", not "url"');
  }
  const config: McpServerConfig = {
    name,
    endpoint:
      typeof command === 'string'
        ? {
            kind: 'stdio',
            command,
            args: (args as string[] | undefined) ?? [],
            env: (env as Record<string, string> | undefined) ?? {},
          }
        : {
            kind: 'http',
            url: url as string,
            headers: (headers as Record<string, string> | undefined) ?? {},
            sseOnly: type === 'sse',
          },
    timeoutMs: typeof timeout === 'number' ? Math.round(timeout * 1000) : DEFAULT_MCP_TIMEOUT_MS,
    connectTimeoutMs:
      typeof connectTimeout === 'number' ? Math.round(connectTimeout * 1000) : DEFAULT_CONNECT_TIMEOUT_MS,
    disabled: disabled === true,
    trust: toTrust(trust),
  };
  return { ok: true, config, warnings };
}

function optional(
  value: unknown,
  field: string,
  check: (v: unknown) => boolean,
  expected: string,
): string | null {
  if (value === undefined || check(value)) return null;
  return `"${field}" must be ${expected} (got ${describe(value)})`;
}

function toTrust(value: unknown): McpTrust {
  if (value === true) return { kind: 'read-only' };
  if (Array.isArray(value)) return { kind: 'tools', tools: value as string[] };
  return { kind: 'none' };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

function isStringArray(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isStringMap(value: unknown): boolean {
  return isObject(value) && Object.values(value).every((item) => typeof item === 'string');
}

function isSeconds(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_SECONDS;
}

function isBoolean(value: unknown): boolean {
  return typeof value === 'boolean';
}

function isTrust(value: unknown): boolean {
  return typeof value === 'boolean' || isStringArray(value);
}

function isTransportType(value: unknown): boolean {
  return value === 'stdio' || value === 'http' || value === 'streamable-http' || value === 'sse';
}
