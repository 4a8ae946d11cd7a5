// Registered names of MCP tools: `mcp__<server>__<tool>`, within [A-Za-z0-9_-] and 64 characters (docs/tools.md, "MCP servers").
import { shortHash } from '../../core/stable-json';

/** Providers accept tool names of at most this many characters. */
export const MAX_TOOL_NAME = 64;

const HASH_LENGTH = 8;

/** Replaces every character outside [A-Za-z0-9_-] with `_`. */
export function sanitiseName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The prefix of every tool of `server`. */
export function serverPrefix(server: string): string {
  return `mcp__${sanitiseName(server)}__`;
}

/**
 * Registered names for one server's tools, keyed by the tool's own name. A name that had to be cut
 * or that collides with a sibling after sanitising gets a short hash of the original, so it stays unique.
 */
export function mcpToolNames(server: string, remoteNames: readonly string[]): Map<string, string> {
  const prefix = serverPrefix(server);
  const names = new Map<string, string>();
  const taken = new Set<string>();
  // Names that fit unchanged are placed first, so a colliding sibling never takes a name from them.
  const plain = (remote: string) => prefix + sanitiseName(remote);
  const fits = (remote: string) => plain(remote).length <= MAX_TOOL_NAME && sanitiseName(remote) === remote;
  const ordered = [...remoteNames.filter(fits), ...remoteNames.filter((remote) => !fits(remote))];
  for (const remote of ordered) {
    if (names.has(remote)) continue;
    let name = plain(remote);
    if (name.length > MAX_TOOL_NAME || taken.has(name)) name = hashedName(prefix, remote, server);
    taken.add(name);
    names.set(remote, name);
  }
  return names;
}

function hashedName(prefix: string, remote: string, server: string): string {
  const hash = shortHash(`${server}\u0000${remote}`, HASH_LENGTH);
  const room = MAX_TOOL_NAME - HASH_LENGTH - 1;
  return `${(prefix + sanitiseName(remote)).slice(0, room)}_${hash}`;
}
