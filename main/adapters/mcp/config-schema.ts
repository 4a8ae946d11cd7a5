// The zod schemas of mcp.json (docs/tools.md, "MCP servers"): the file, then each server on its own, so a wrong field
// fails only its server. Each message is what follows the quoted field in a reason (main/core/zod-issues.ts).
import { z } from 'zod';
import { shownValue } from '../../core/zod-issues';

// A day is far past any sensible call and well inside setTimeout's 2^31-1 ms.
const MAX_SECONDS = 24 * 60 * 60;
const TRANSPORT_TYPES = ['stdio', 'http', 'streamable-http', 'sse'] as const;

// `must be <what> (got <the value>)`.
const expected =
  (what: string) =>
  (issue: { input: unknown }): string =>
    `must be ${what} (got ${shownValue(issue.input)})`;

const SECONDS = expected(`a number of seconds above 0 and at most ${MAX_SECONDS}`);
const NON_EMPTY = expected('a non-empty string');

const nonEmpty = z.string({ error: NON_EMPTY }).regex(/\S/, { error: NON_EMPTY });
const seconds = z.number({ error: SECONDS }).gt(0, { error: SECONDS }).max(MAX_SECONDS, { error: SECONDS });
const stringMap = z.record(z.string(), z.string({ error: expected('a string') }), {
  error: expected('an object of string values'),
});

/** One server's settings; the endpoint rules that tie fields together are checked last. */
export const serverSchema = z
  .object(
    {
      command: nonEmpty.optional(),
      args: z
        .array(z.string({ error: (issue) => `must hold only strings (got ${shownValue(issue.input)})` }), {
          error: expected('an array of strings'),
        })
        .optional(),
      env: stringMap.optional(),
      url: nonEmpty.optional(),
      headers: stringMap.optional(),
      timeout: seconds.optional(),
      connectTimeout: seconds.optional(),
      disabled: z.boolean({ error: expected('true or false') }).optional(),
      restartOnCancel: z.boolean({ error: expected('true or false') }).optional(),
      trust: z
        .union([z.boolean(), z.array(z.string())], {
          error: expected('true, false or an array of tool names'),
        })
        .optional(),
      type: z
        .enum(TRANSPORT_TYPES, { error: expected('"stdio", "http", "streamable-http" or "sse"') })
        .optional(),
    },
    { error: 'must be an object with "command" or "url"' },
  )
  .superRefine((server, context) => {
    const fail = (message: string): void => context.addIssue({ code: 'custom', message });
    const { command, url, type } = server;
    if (command === undefined && url === undefined) fail('needs "command" (stdio) or "url" (HTTP)');
    else if (command !== undefined && url !== undefined) fail('has both "command" and "url"; give one');
    else if (
      command !== undefined &&
      (server.headers !== undefined || (type !== undefined && type !== 'stdio'))
    )
      fail('"headers" and an HTTP "type" need "url", not "command"');
    else if (url !== undefined && (server.args !== undefined || server.env !== undefined || type === 'stdio'))
      fail('"args", "env" and "type": "stdio" need "command", not "url"');
    else if (url !== undefined && server.restartOnCancel !== undefined)
      fail('"restartOnCancel" needs "command": a server over HTTP is not ours to restart');
  });

/** The keys a server entry knows; others are warned about and ignored. */
export const SERVER_KEYS: readonly string[] = Object.keys(serverSchema.shape);

// Only the blocks' shape: each server is read on its own (parse-config.ts).
const serverBlock = z
  .record(z.string(), z.unknown(), { error: 'must be an object mapping server names to their settings' })
  .optional();

/** mcp.json as a whole: `{"servers": …}` or the Claude-Desktop form `{"mcpServers": …}`. */
export const configFileSchema = z.object(
  { servers: serverBlock, mcpServers: serverBlock },
  { error: 'must hold a JSON object with "servers" (or "mcpServers")' },
);

/** The top-level keys mcp.json knows. */
export const TOP_KEYS: readonly string[] = Object.keys(configFileSchema.shape);
