// The content of trusted-folders.json (docs/security.md), read defensively: a file that is not exactly what this
// version writes trusts nothing, so a tampered or half-written file can only ever make tools ask more.
import path from 'node:path';

/** One folder the person trusted: its realpath when it was trusted, and when. */
export interface TrustedFolder {
  path: string;
  /** ISO time. */
  trustedAt: string;
}

/** The content of trusted-folders.json. */
export interface TrustFile {
  version: 1;
  folders: TrustedFolder[];
}

/** What reading the file found: its folders, or why it is damaged (then no folder is trusted). */
export type TrustFileState = { kind: 'ok'; file: TrustFile } | { kind: 'damaged'; problem: string };

// Longer than any real path, short enough that a huge file cannot hide an entry behind noise.
const MAX_PATH_LENGTH = 4096;
const MAX_FOLDERS = 10_000;

/** An empty file: nothing trusted. */
export function emptyTrustFile(): TrustFile {
  return { version: 1, folders: [] };
}

/** Parses the text of trusted-folders.json; any deviation is a damaged file, never a partial read. */
export function parseTrustFile(text: string, file: string): TrustFileState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: 'damaged', problem: `${file} is not valid JSON (${(error as Error).message})` };
  }
  const problem = checkFile(raw);
  if (problem) return { kind: 'damaged', problem: `${file}: ${problem}` };
  const folders = (raw as TrustFile).folders.map((entry) => ({
    path: entry.path,
    trustedAt: entry.trustedAt,
  }));
  return { kind: 'ok', file: { version: 1, folders } };
}

function checkFile(raw: unknown): string | null {
  if (!isObject(raw)) return 'must hold a JSON object';
  if (raw.version !== 1) return `unknown version ${JSON.stringify(raw.version)}`;
  if (!Array.isArray(raw.folders)) return '"folders" must be an array';
  if (raw.folders.length > MAX_FOLDERS) return `"folders" holds more than ${MAX_FOLDERS} entries`;
  for (const [i, entry] of raw.folders.entries()) {
    const problem = checkEntry(entry);
    if (problem) return `folders[${i}] ${problem}`;
  }
  return null;
}

function checkEntry(entry: unknown): string | null {
  if (!isObject(entry)) return 'must be an object';
  const folder = entry.path;
  if (typeof folder !== 'string' || folder === '') return 'needs a "path"';
  if (folder.length > MAX_PATH_LENGTH || folder.includes('\0')) return '"path" is not a usable path';
  // Entries are written as realpaths: anything else was not written by Agenvoy.
  if (!path.isAbsolute(folder) || path.resolve(folder) !== folder)
    return '"path" must be an absolute, normal path';
  if (typeof entry.trustedAt !== 'string' || Number.isNaN(Date.parse(entry.trustedAt)))
    return 'needs a "trustedAt" time';
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
