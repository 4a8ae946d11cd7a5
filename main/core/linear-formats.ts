// Schema formats whose ajv-formats check takes more than linear time, replaced by linear ones (docs/security.md,
// "A hostile MCP server"). ajv-formats checks `url` with a JavaScript regular expression that takes quadratic
// time on `http://` and many colons: 200,000 characters of an argument or of an MCP server's structured content
// held the main thread for most of a minute, before anyone was asked. The other formats were measured linear
// (format-redos-attack.test.ts).
import type { Ajv } from 'ajv';

const URL_SHAPE = /^(?:https?|ftp):\/\/\S+$/i;

/** ajv-formats' `url` (an http, https or ftp address without blanks), read by the WHATWG URL parser instead. */
export function isUrl(text: string): boolean {
  if (!URL_SHAPE.test(text) || !URL.canParse(text)) return false;
  return new URL(text).hostname !== '';
}

/** Replaces the slow formats ajv-formats added to `ajv`; call it after ajv-formats. */
export function useLinearFormats(ajv: Pick<Ajv, 'addFormat'>): void {
  ajv.addFormat('url', { type: 'string', validate: isUrl });
}
