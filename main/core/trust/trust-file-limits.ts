// What trusted-folders.json is without its parser (trust-file.ts, zod): the store names these at start, and loads the
// parser only when there is a file to read (docs/hosts.md, "Fast start").
import type { TrustFile } from './trust-file';

/** The version this code writes. */
export const TRUST_FILE_VERSION = 2;

/** The largest trusted-folders.json read (far beyond any real one): a larger file is damaged, never parsed. */
export const MAX_TRUST_FILE_BYTES = 64 * 1024 * 1024;

/** An empty file: nothing trusted. */
export function emptyTrustFile(): TrustFile {
  return { version: 2, folders: [] };
}
