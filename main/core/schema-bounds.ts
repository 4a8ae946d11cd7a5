// Limits on the structures tools hand us (tool.json, MCP tools/list): checked before anything walks them, so one
// deep or huge schema is refused with a reason instead of overflowing the stack of every later step.

/** How deep a parameter schema may nest (objects and arrays, counted like JSON brackets). */
export const MAX_SCHEMA_DEPTH = 64;

/** How large a parameter schema may be, as JSON text. */
export const MAX_SCHEMA_BYTES = 512 * 1024;

/** How long a tool description may be (R2 asks for 200; this only keeps a runaway one out). */
export const MAX_TOOL_DESCRIPTION_LENGTH = 32 * 1024;

/** The limits one check applies. */
export interface JsonLimits {
  maxDepth: number;
  maxBytes: number;
}

/** The default limits of a parameter schema. */
export const SCHEMA_LIMITS: JsonLimits = { maxDepth: MAX_SCHEMA_DEPTH, maxBytes: MAX_SCHEMA_BYTES };

// Enough of a path to find the place in the file; the rest is elided.
const PATH_SHOWN = 6;

/**
 * Why `value` is beyond the limits ("nested deeper than 64 levels (at …); the limit is 64"), or null when within.
 * Iterative and stops at the first limit it passes, so its own cost is bounded by the limits, whatever the input.
 */
export function jsonBoundsProblem(value: unknown, limits: JsonLimits = SCHEMA_LIMITS): string | null {
  let bytes = 0;
  const stack: Array<{ value: unknown; depth: number; path: string[] }> = [{ value, depth: 0, path: [] }];
  while (stack.length > 0) {
    const { value: node, depth, path } = stack.pop() as { value: unknown; depth: number; path: string[] };
    if (typeof node === 'string') bytes += node.length + 2;
    else if (typeof node === 'number' || typeof node === 'boolean') bytes += String(node).length;
    else if (node === null || node === undefined) bytes += 4;
    else if (typeof node === 'object') {
      if (depth + 1 > limits.maxDepth) {
        return `nested deeper than ${limits.maxDepth} levels (at ${describePath(path)}); the limit is ${limits.maxDepth}`;
      }
      bytes += 2;
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length && bytes <= limits.maxBytes; i++) {
          bytes += 1;
          stack.push({ value: node[i] as unknown, depth: depth + 1, path: [...path, String(i)] });
        }
      } else {
        for (const key of Object.keys(node)) {
          if (bytes > limits.maxBytes) break;
          bytes += key.length + 4;
          const child = (node as Record<string, unknown>)[key];
          stack.push({ value: child, depth: depth + 1, path: [...path, key] });
        }
      }
    }
    if (bytes > limits.maxBytes) {
      return `larger than ${formatBytes(limits.maxBytes)} as JSON; the limit is ${formatBytes(limits.maxBytes)}`;
    }
  }
  return null;
}

function describePath(path: string[]): string {
  if (path.length === 0) return 'the top';
  const shown = path
    .slice(0, PATH_SHOWN)
    .map((key) => (key.length > 40 ? `${key.slice(0, 40)}…` : key))
    .join('.');
  return path.length > PATH_SHOWN ? `${shown}…, ${path.length} levels down` : shown;
}

/** Bytes for a message: "512 KiB", "1 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}
