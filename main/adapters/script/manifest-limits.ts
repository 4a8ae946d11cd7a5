// What a tool.json is without its parser (tool-manifest.ts, zod): discovery names these while it walks the folders,
// and loads the parser only when a folder holds a tool.json (docs/hosts.md, "Fast start").
import { MAX_SCHEMA_BYTES } from '../../core/schema-bounds';

/** The prefix of every script tool's registered name. */
export const SCRIPT_PREFIX = 'script_';

/** The largest tool.json read: twice the schema limit leaves room for the rest, and keeps a runaway file out. */
export const MAX_MANIFEST_BYTES = 2 * MAX_SCHEMA_BYTES;
