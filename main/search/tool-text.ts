// What of a tool definition is embedded (docs/search.md, "Embeddings (optional)"): its name, description and
// parameter names, bounded, so one huge MCP description cannot make a request huge.
import type { JsonSchema } from '../../tools/sdk/types';
import { isRecord } from '../../tools/sdk/values';
import { clipChars } from '../core/clip-chars';

/** Most characters of a description that are embedded (a description past it is rarely more than examples). */
export const EMBEDDED_DESCRIPTION_CHARS = 1500;
/** Most parameter names that are embedded. */
export const EMBEDDED_PARAMETERS = 40;
/** Most characters of the whole text; a model's own limit truncates further where it is smaller. */
export const EMBEDDED_TEXT_CHARS = 2000;
/** Most characters of a query that are embedded. */
export const EMBEDDED_QUERY_CHARS = 1000;

/**
 * The text embedded for a tool: `name`, the description, and `Parameters: a, b, c`. Its shape is part of the cache's
 * model id (TOOL_TEXT_VERSION), so changing it here embeds every tool again instead of mixing two kinds of text.
 */
export function toolText(tool: { name: string; description: string; parameters?: JsonSchema }): string {
  const description = clipChars(String(tool.description ?? ''), EMBEDDED_DESCRIPTION_CHARS).text;
  const properties = isRecord(tool.parameters) ? tool.parameters.properties : undefined;
  const names = isRecord(properties) ? Object.keys(properties).slice(0, EMBEDDED_PARAMETERS) : [];
  const parts = [String(tool.name), description];
  if (names.length > 0) parts.push(`Parameters: ${names.map((name) => clipChars(name, 64).text).join(', ')}`);
  return clipChars(parts.filter(Boolean).join('\n'), EMBEDDED_TEXT_CHARS).text;
}

/** Bumped whenever toolText changes what it produces. */
export const TOOL_TEXT_VERSION = 1;

/** A query as it is embedded: trimmed and bounded. */
export function queryText(query: string): string {
  return clipChars(query.trim(), EMBEDDED_QUERY_CHARS).text;
}
