// Validates a tool.json (docs/tools.md, "Script tools"): every wrong field is a reason naming it, never an exception.
import { DEFAULT_TOOL_TIMEOUT } from '../../../tools/sdk/types';
import type { ScriptManifest } from './types';

/** The prefix of every script tool's registered name. */
export const SCRIPT_PREFIX = 'script_';

// Providers accept tool names of at most 64 characters from [A-Za-z0-9_-]; the prefix takes 7.
const NAME_PATTERN = /^[A-Za-z0-9_-]+$/;
const MAX_NAME_LENGTH = 64 - SCRIPT_PREFIX.length;
const SECRET_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A day is far past any sensible call, and well inside setTimeout's 2^31-1 ms.
const MAX_TIMEOUT_SECONDS = 24 * 60 * 60;
// A tool that needs more writable folders than this wants a narrower design, not a longer list.
const MAX_WRITABLE = 32;
const MAX_PATH_LENGTH = 4096;
const KNOWN_KEYS = new Set([
  'name',
  'description',
  'parameters',
  'always_allow',
  'concurrent',
  'timeout',
  'secrets',
  'writable',
]);

/** The outcome of reading a tool.json. */
export type ManifestResult =
  { ok: true; manifest: ScriptManifest; warnings: string[] } | { ok: false; reason: string };

/** Parses and validates the text of a tool.json. */
export function parseManifest(text: string): ManifestResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `malformed JSON: ${(error as Error).message}` };
  }
  if (!isPlainObject(raw)) return { ok: false, reason: 'tool.json must hold a JSON object' };

  const { name, description, parameters, always_allow, concurrent, timeout, secrets, writable } = raw;
  if (typeof name !== 'string' || name.length === 0)
    return { ok: false, reason: '"name" must be a non-empty string' };
  if (!NAME_PATTERN.test(name)) {
    return {
      ok: false,
      reason: `"name" may hold only letters, digits, "_" and "-": got ${JSON.stringify(cut(name))}`,
    };
  }
  if (name.length > MAX_NAME_LENGTH) {
    return {
      ok: false,
      reason: `"name" is longer than ${MAX_NAME_LENGTH} characters (script_<name> must fit in 64)`,
    };
  }
  if (typeof description !== 'string' || description.trim().length === 0) {
    return { ok: false, reason: '"description" must be a non-empty string' };
  }
  const schemaProblem = parameters === undefined ? null : checkParameters(parameters);
  if (schemaProblem) return { ok: false, reason: schemaProblem };
  for (const [key, value] of [
    ['always_allow', always_allow],
    ['concurrent', concurrent],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean')
      return { ok: false, reason: `"${key}" must be true or false` };
  }
  if (
    timeout !== undefined &&
    (typeof timeout !== 'number' ||
      !Number.isFinite(timeout) ||
      timeout <= 0 ||
      timeout > MAX_TIMEOUT_SECONDS)
  ) {
    return {
      ok: false,
      reason: `"timeout" must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}`,
    };
  }
  if (secrets !== undefined && !isStringArray(secrets)) {
    return { ok: false, reason: '"secrets" must be an array of key names' };
  }
  const secretKeys = secrets ?? [];
  const badKey = secretKeys.find((key) => !SECRET_PATTERN.test(key));
  if (badKey !== undefined) {
    return {
      ok: false,
      reason: `"secrets" holds ${JSON.stringify(cut(badKey))}, which is not a valid environment variable name`,
    };
  }
  const writableProblem = writable === undefined ? null : checkWritable(writable);
  if (writableProblem) return { ok: false, reason: writableProblem };

  const unknown = Object.keys(raw).filter((key) => !KNOWN_KEYS.has(key));
  return {
    ok: true,
    manifest: {
      name,
      description,
      parameters: (parameters as ScriptManifest['parameters'] | undefined) ?? {
        type: 'object',
        properties: {},
      },
      alwaysAllow: always_allow === true,
      concurrent: concurrent === true,
      timeoutMs: typeof timeout === 'number' ? Math.round(timeout * 1000) : DEFAULT_TOOL_TIMEOUT,
      secrets: [...new Set(secretKeys)],
      writable: [...new Set((writable as string[] | undefined) ?? [])],
    },
    warnings: unknown.map(unknownKeyWarning),
  };
}

// Keys authors write expecting them to work: each gets the reason it does nothing, or the key they meant.
const UNKNOWN_KEY_HINTS: Record<string, string> = {
  background: 'script tools always run in the foreground; the agent waits for the result',
  system_use: 'script tools are never system tools',
  systemUse: 'script tools are never system tools',
  alwaysAllow: 'did you mean "always_allow"?',
  timeout_ms: 'did you mean "timeout" (in seconds)?',
  timeoutMs: 'did you mean "timeout" (in seconds)?',
  params: 'did you mean "parameters"?',
  inputSchema: 'did you mean "parameters"?',
  input_schema: 'did you mean "parameters"?',
  secret: 'did you mean "secrets"?',
};

/** The warning for one unknown tool.json key: it is ignored, and why or what was meant. */
export function unknownKeyWarning(key: string): string {
  const shown = JSON.stringify(cut(key));
  const hint = Object.hasOwn(UNKNOWN_KEY_HINTS, key)
    ? UNKNOWN_KEY_HINTS[key]
    : `known keys: ${[...KNOWN_KEYS].join(', ')}`;
  return `tool.json: unknown key ${shown} is ignored (${hint})`;
}

// The dispatcher validates arguments against this schema, so it must be an object schema.
function checkParameters(parameters: unknown): string | null {
  if (!isPlainObject(parameters)) return '"parameters" must be a JSON Schema object';
  if (parameters.type !== undefined && parameters.type !== 'object')
    return '"parameters.type" must be "object"';
  const { properties, required } = parameters;
  if (properties !== undefined) {
    if (!isPlainObject(properties)) return '"parameters.properties" must be an object';
    const bad = Object.entries(properties).find(
      ([, schema]) => !isPlainObject(schema) && typeof schema !== 'boolean',
    );
    if (bad) return `"parameters.properties.${cut(bad[0])}" must be a JSON Schema object`;
  }
  if (required !== undefined && !isStringArray(required)) {
    return '"parameters.required" must be an array of property names';
  }
  return null;
}

// Only the shape is checked here; where the paths lead is checked when the tool folder loads (writable-paths.ts).
function checkWritable(writable: unknown): string | null {
  if (!isStringArray(writable)) return '"writable" must be an array of folder paths';
  if (writable.length > MAX_WRITABLE) return `"writable" may list at most ${MAX_WRITABLE} folders`;
  const bad = writable.find(
    (entry) => entry.trim() === '' || entry.length > MAX_PATH_LENGTH || entry.includes('\0'),
  );
  if (bad !== undefined) {
    return `"writable" holds ${JSON.stringify(bad.slice(0, 80))}, which is not a usable path (empty, too long or with a NUL)`;
  }
  return null;
}

// Text from the file quoted in a reason, cut so a runaway value cannot flood the listing.
function cut(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
