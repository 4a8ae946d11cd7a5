// One line a stdio MCP server sent, read as a JSON-RPC message (docs/dispatch.md, "The hot path"). The SDK reads every
// line with its zod union of the four JSON-RPC shapes, which tries a request and a notification before it reaches a
// response: 5-10 µs of each call's answer on this machine, as much as the rest of our client's work on it. The answer
// to a request is checked here by hand instead, and only when it is certainly valid; anything else (an error, a
// request, a notification, a response with `_meta`, a doubtful id) goes to the SDK's schema as before.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** `line` as a JSON-RPC message; throws, as the SDK's reader does, when it is not one. */
export function readMessage(line: string): JSONRPCMessage {
  const value: unknown = JSON.parse(line);
  return isPlainResult(value) ? value : JSONRPCMessageSchema.parse(value);
}

/**
 * Whether `value` is `{jsonrpc: "2.0", id, result}` and nothing more, with a string or safe-integer id and an object
 * result without `_meta` (or `__proto__`, which a copy would turn into a prototype): a value the SDK's
 * JSONRPCResultResponseSchema accepts as it is (its result is a loose object, kept whole, and parsed again by the
 * request's own result schema when it is delivered).
 */
export function isPlainResult(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  let keys = 0;
  for (const key in value) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'result') return false;
    keys++;
  }
  if (keys !== 3) return false;
  const message = value as { jsonrpc: unknown; id: unknown; result: unknown };
  if (message.jsonrpc !== '2.0') return false;
  const id = message.id;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  const result = message.result;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return false;
  return !Object.hasOwn(result, '_meta') && !Object.hasOwn(result, '__proto__');
}
