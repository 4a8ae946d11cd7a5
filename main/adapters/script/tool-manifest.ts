// Reads a tool.json (docs/tools.md, "Script tools") with its zod schema (tool-manifest-schema.ts): every wrong field is
// a reason naming it, never an exception; unknown keys are warnings.
import { DEFAULT_TOOL_TIMEOUT } from '../../../tools/sdk/types';
import type { JsonLimits } from '../../core/schema-bounds';
import { formatBytes, jsonBoundsProblem, MAX_SCHEMA_DEPTH } from '../../core/schema-bounds';
import { MAX_MANIFEST_BYTES } from './manifest-limits';
import { shownValue, zodReason } from '../../core/zod-issues';
import { KNOWN_KEYS, manifestSchema, MAX_FIELD_BYTES } from './tool-manifest-schema';
import type { ScriptManifest } from './types';
import { isRecord } from '../../../tools/sdk/values';

export { MAX_MANIFEST_BYTES, SCRIPT_PREFIX } from './manifest-limits';

/** The outcome of reading a tool.json. */
export type ManifestResult =
  { ok: true; manifest: ScriptManifest; warnings: string[] } | { ok: false; reason: string };

/** Parses and validates the text of a tool.json. */
export function parseManifest(text: string): ManifestResult {
  // UTF-16 units never outnumber UTF-8 bytes, so a file read within the limit (discover.ts) always passes.
  if (text.length > MAX_MANIFEST_BYTES) {
    return { ok: false, reason: `tool.json must hold at most ${formatBytes(MAX_MANIFEST_BYTES)} of JSON` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `malformed JSON: ${withoutText((error as Error).message)}` };
  }
  const bounds = boundsProblem(raw);
  if (bounds) return { ok: false, reason: bounds };
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: zodReason(parsed.error) };

  const { name, description, always_allow, concurrent, timeout, secrets, writable } = parsed.data;
  // The schema as written, not zod's copy: it is hashed, compiled and shown exactly as the author wrote it.
  const parameters = (raw as { parameters?: ScriptManifest['parameters'] }).parameters;
  const unknown = Object.keys(raw as object).filter((key) => !KNOWN_KEYS.includes(key));
  return {
    ok: true,
    manifest: {
      name,
      description,
      parameters: parameters ?? { type: 'object', properties: {} },
      alwaysAllow: always_allow === true,
      concurrent: concurrent === true,
      timeoutMs: timeout === undefined ? DEFAULT_TOOL_TIMEOUT : Math.round(timeout * 1000),
      secrets: [...new Set(secrets ?? [])],
      writable: [...new Set(writable ?? [])],
    },
    warnings: unknown.map(unknownKeyWarning),
  };
}

// Bounds before zod reads the value (docs/robustness.md, "Limits on untrusted structures"): the text is within
// MAX_MANIFEST_BYTES, and each list zod reads item by item is within FIELD_LIMITS, so zod's work stays small. Left
// to the limits step (main/core/tool-broken.ts) are the rest of `parameters`, of which zod reads only the outer two
// levels, and `description`, read in one step: one too deep or too large makes a broken tool the listing shows, not
// a missing one. Unknown keys are never read.
const FIELD_LIMITS: JsonLimits = { maxDepth: MAX_SCHEMA_DEPTH, maxBytes: MAX_FIELD_BYTES };

function boundsProblem(raw: unknown): string | null {
  if (!isRecord(raw)) return null;
  const fields: Array<[string, unknown]> = KNOWN_KEYS.filter(
    (key) => key !== 'parameters' && key !== 'description' && Object.hasOwn(raw, key),
  ).map((key) => [key, raw[key]]);
  if (isRecord(raw.parameters) && Object.hasOwn(raw.parameters, 'required'))
    fields.push(['parameters.required', raw.parameters.required]);
  for (const [field, value] of fields) {
    const problem = jsonBoundsProblem(value, FIELD_LIMITS);
    if (problem) return `"${field}" is ${problem}`;
  }
  return null;
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
  const shown = shownValue(key, 80);
  const hint = Object.hasOwn(UNKNOWN_KEY_HINTS, key)
    ? UNKNOWN_KEY_HINTS[key]
    : `known keys: ${KNOWN_KEYS.join(', ')}`;
  return `tool.json: unknown key ${shown} is ignored (${hint})`;
}

// V8's message quotes the start of the text ('Unexpected token 'd', "[default]\na"... is not valid JSON'): the reason is
// logged and shown, and the file may not be what it claims: that form is replaced, and the others say only where the text
// breaks.
function withoutText(message: string): string {
  return / is not valid JSON$/.test(message) ? 'the text is not valid JSON' : message;
}
