// What the app remembers of a trusted MCP tool's definition (docs/security.md, "MCP trust"): a hash of the whole and
// of each part, with enough of the definition in words (its description, its parameters' names) to tell the person
// what changed when a server swaps a trusted tool under the same name. Pure: the file is trusted-definitions.ts.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { clipChars } from '../../core/clip-chars';
import { shortHash, stableStringify } from '../../core/stable-json';

/** The parts of a definition trust covers, in the order a change is told. */
export const DEFINITION_PARTS = [
  'description',
  'title',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const;
export type DefinitionPart = (typeof DEFINITION_PARTS)[number];

/** How the pin came to be: the first definition the app met trusted, or one the person accepted after a change. */
export type PinOrigin = 'first-seen' | 'accepted';

/** One trusted tool's definition as the app recorded it. */
export interface DefinitionPin {
  /** The tool's name on its server. */
  tool: string;
  /** Hash of the whole definition (DEFINITION_PARTS). */
  definition: string;
  /** Hash of each part. */
  parts: Record<DefinitionPart, string>;
  /** The names of its top-level parameters, sorted (at most MAX_PINNED_PARAMETERS). */
  parameters: string[];
  /** Its description, cut to MAX_PINNED_DESCRIPTION characters. */
  description: string;
  /** ISO time it was recorded. */
  pinnedAt: string;
  origin: PinOrigin;
}

export const MAX_PINNED_DESCRIPTION = 2000;
export const MAX_PINNED_PARAMETERS = 200;
export const MAX_PARAMETER_NAME = 128;
// Bounds of the file (trusted-definitions.ts): far beyond any real one, so a crafted file cannot make reading slow.
export const MAX_DEFINITIONS_FILE_BYTES = 64 * 1024 * 1024;
export const MAX_PINNED_SERVERS = 1000;
export const MAX_PINNED_TOOLS = 5000;
// What one server's pins may take, written as JSON: far beyond a real server's (a few KiB a tool), so one server cannot
// fill the file for the others; a tool past it is not trusted (trust-judge.ts).
export const MAX_SERVER_PIN_BYTES = 2 * 1024 * 1024;
// A tool's name on its server is at most 1024 characters (list-tools.ts); a server's name is held to the same.
export const MAX_PINNED_NAME = 1024;

/**
 * The pin of `tool`'s definition as it is now. The words kept to show (description, parameter names) go through
 * `redact` first: a server given a secret may repeat it in them, and the record and `mcp changed` must not hold it.
 */
export function pinOf(
  tool: Tool,
  origin: PinOrigin,
  redact: (text: string) => string = (text) => text,
  now: Date = new Date(),
): DefinitionPin {
  const { description, title, inputSchema, outputSchema, annotations } = tool;
  const whole = { description, title, inputSchema, outputSchema, annotations };
  const parts = Object.fromEntries(
    DEFINITION_PARTS.map((part) => [part, shortHash(stableStringify(whole[part] ?? null), 16)]),
  ) as Record<DefinitionPart, string>;
  const properties = inputSchema?.properties;
  const names =
    properties && typeof properties === 'object' && !Array.isArray(properties) ? Object.keys(properties) : [];
  return {
    tool: tool.name,
    definition: definitionHash(tool),
    parts,
    parameters: names
      .map(redact)
      .filter((name) => name.length <= MAX_PARAMETER_NAME)
      .sort()
      .slice(0, MAX_PINNED_PARAMETERS),
    // Redacted before the cut, so no cut splits a secret. The cut is silent here; what shows it says so (change-report.ts).
    description: clipChars(redact(description ?? ''), MAX_PINNED_DESCRIPTION).text,
    pinnedAt: now.toISOString(),
    origin,
  };
}

/** The hash that decides whether a definition is the pinned one. */
export function definitionHash(tool: Tool): string {
  const { description, title, inputSchema, outputSchema, annotations } = tool;
  return shortHash(stableStringify({ description, title, inputSchema, outputSchema, annotations }), 32);
}

const PART_WORDS: Record<DefinitionPart, string> = {
  description: 'description',
  title: 'title',
  inputSchema: 'parameters',
  outputSchema: 'output schema',
  annotations: 'annotations (such as its read-only hint)',
};

/** What changed from `before` to `now`, in words: "its description and parameters (added: url; removed: path)". */
export function describeChange(before: DefinitionPin, now: DefinitionPin): string {
  const changed = DEFINITION_PARTS.filter((part) => before.parts[part] !== now.parts[part]);
  if (changed.length === 0) return 'its definition';
  const words = changed.map((part) => {
    if (part !== 'inputSchema') return PART_WORDS[part];
    const added = now.parameters.filter((name) => !before.parameters.includes(name));
    const removed = before.parameters.filter((name) => !now.parameters.includes(name));
    const detail = [
      ...(added.length ? [`added: ${shownNames(added)}`] : []),
      ...(removed.length ? [`removed: ${shownNames(removed)}`] : []),
    ].join('; ');
    return detail ? `parameters (${detail})` : 'parameters';
  });
  const list = words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
  return `its ${list}`;
}

// Names a server chose: a few, each cut, JSON-quoted so no control character or quote reads as ours.
function shownNames(names: readonly string[]): string {
  const shown = names.slice(0, 8).map((name) => JSON.stringify(name.slice(0, 40)));
  return names.length > 8 ? `${shown.join(', ')} and ${names.length - 8} more` : shown.join(', ');
}

/** The bytes `pin` takes in the file (near enough: as compact JSON). */
export function pinBytes(pin: DefinitionPin): number {
  return Buffer.byteLength(JSON.stringify(pin));
}

/** Why `pin` of `server` could not be written to a file this version reads, or null (the parser's bounds, kept in step). */
export function recordProblem(server: string, pin: DefinitionPin): string | null {
  if (server.length < 1 || server.length > MAX_PINNED_NAME)
    return `a server name of ${server.length} characters`;
  if (pin.tool.length < 1 || pin.tool.length > MAX_PINNED_NAME)
    return `a tool name of ${pin.tool.length} characters`;
  return null;
}
