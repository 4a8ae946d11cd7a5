// The per-call size limit on tool arguments (docs/robustness.md): what it is by default, how a size reads in a
// message, and the small marker object an oversized call's arguments are replaced with in the transcript.

/** The default limit on one call's arguments: 1 MiB of JSON text. */
export const DEFAULT_TOOL_ARGUMENTS_BYTES = 1024 * 1024;

/** An oversized call: how big its arguments were and the limit they broke. */
export interface TooLarge {
  bytes: number;
  limit: number;
}

/** A size for people: "20.0 MiB", "512.0 KiB", "900 bytes"; `whole` drops a ".0" (for limits: "1 MiB"). */
export function formatBytes(bytes: number, whole = false): string {
  const units: Array<[number, string]> = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units) {
    if (bytes < size) continue;
    const value = (bytes / size).toFixed(1);
    return `${whole && value.endsWith('.0') ? value.slice(0, -2) : value} ${unit}`;
  }
  return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
}

/** The message the model (or the CLI) reads: `arguments too large: 20.0 MiB (limit 1 MiB)`. */
export function argumentsTooLargeMessage(tooLarge: TooLarge): string {
  return `arguments too large: ${formatBytes(tooLarge.bytes)} (limit ${formatBytes(tooLarge.limit, true)})`;
}

/** The JSON text that replaces oversized arguments wherever the call is kept: `{"_omitted":"arguments too large: …"}`. */
export function omittedArgumentsMarker(tooLarge: TooLarge): string {
  return JSON.stringify({ _omitted: argumentsTooLargeMessage(tooLarge) });
}

/**
 * The size of a call's arguments as the model sent them: the UTF-8 bytes of their JSON text. Objects (from the CLI,
 * MCP serve or tests) are measured as JSON; null for one that cannot be serialised (a cycle, nesting past the
 * stack), so the caller refuses it rather than crashing on the measurement.
 */
export function argumentBytes(args: unknown): number | null {
  if (args === undefined || args === null) return 0;
  if (typeof args === 'string') return Buffer.byteLength(args, 'utf8');
  try {
    return Buffer.byteLength(JSON.stringify(args) ?? '', 'utf8');
  } catch {
    return null;
  }
}

/** The limit a setting asks for, or the default when it is not a usable positive size. */
export function effectiveLimit(limit: number | undefined): number {
  return limit !== undefined && Number.isFinite(limit) && limit > 0 ? limit : DEFAULT_TOOL_ARGUMENTS_BYTES;
}

/**
 * The deepest nesting of arrays and objects a call's arguments may have (docs/robustness.md). JSON.parse reads any
 * depth, but what writes them back (events, the database row, a tool's own JSON) recurses: 100,000 levels are 200 KB.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/** Whether JSON text nests arrays and objects deeper than `max`: one linear pass, before anything parses it. */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
