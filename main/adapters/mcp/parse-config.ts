// Reads mcp.json (docs/tools.md, "MCP servers") with its zod schemas (config-schema.ts): a wrong field fails only its own
// server, with a reason naming file, server and field.
import { jsonBoundsProblem, SCHEMA_LIMITS } from '../../core/schema-bounds';
import { zodReason } from '../../core/zod-issues';
import { configFileSchema, SERVER_KEYS, serverSchema, TOP_KEYS } from './config-schema';
import type { McpConfigFile, McpServerConfig, McpServerEntry, McpTrust } from './config-types';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS } from './config-types';
import { isRecord } from '../../../tools/sdk/values';

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
  const shape = configFileSchema.safeParse(raw);
  if (!shape.success) return { ...result, error: zodReason(shape.error, `${file}: `) };
  const top = raw as Record<string, unknown>;
  for (const key of Object.keys(top)) {
    if (!TOP_KEYS.includes(key)) result.warnings.push(`${file}: unknown key "${key}" ignored`);
  }
  const names = new Set<string>();
  for (const key of TOP_KEYS) {
    // The blocks as written, not zod's copies: those leave out a server named "__proto__".
    if (!Object.hasOwn(top, key)) continue;
    for (const [name, value] of Object.entries(top[key] as Record<string, unknown>)) {
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
    disabled: isRecord(raw) && raw.disabled === true,
    warnings,
  });
  if (name.trim() === '') return fail('a server needs a non-empty name');
  if (isRecord(raw)) {
    for (const key of Object.keys(raw)) {
      if (!SERVER_KEYS.includes(key)) warnings.push(`${where}: unknown key "${key}" ignored`);
    }
    const bounds = boundsProblem(raw);
    if (bounds) return fail(bounds);
  }
  const parsed = serverSchema.safeParse(raw);
  if (!parsed.success) return fail(zodReason(parsed.error));
  const {
    command,
    args,
    env,
    url,
    headers,
    timeout,
    connectTimeout,
    disabled,
    trust,
    type,
    restartOnCancel,
  } = parsed.data;
  const config: McpServerConfig = {
    name,
    // The schema lets through exactly one of command and url.
    endpoint:
      command !== undefined
        ? { kind: 'stdio', command, args: args ?? [], env: env ?? {} }
        : { kind: 'http', url: url as string, headers: headers ?? {}, sseOnly: type === 'sse' },
    timeoutMs: timeout === undefined ? DEFAULT_MCP_TIMEOUT_MS : Math.round(timeout * 1000),
    connectTimeoutMs:
      connectTimeout === undefined ? DEFAULT_CONNECT_TIMEOUT_MS : Math.round(connectTimeout * 1000),
    disabled: disabled === true,
    trust: toTrust(trust),
    restartOnCancel: restartOnCancel !== false,
  };
  return { ok: true, config, warnings };
}

// Bounds before zod reads a server (docs/robustness.md, "Limits on untrusted structures"): each field it reads is
// within the schema limits. Unknown keys are never read.
function boundsProblem(server: Record<string, unknown>): string | null {
  for (const key of SERVER_KEYS) {
    if (!Object.hasOwn(server, key)) continue;
    const problem = jsonBoundsProblem(server[key], SCHEMA_LIMITS);
    if (problem) return `"${key}" is ${problem}`;
  }
  return null;
}

function toTrust(value: boolean | string[] | undefined): McpTrust {
  if (value === true) return { kind: 'read-only' };
  if (Array.isArray(value)) return { kind: 'tools', tools: value };
  return { kind: 'none' };
}
