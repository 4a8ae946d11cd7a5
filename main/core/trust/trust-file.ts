// The content of trusted-folders.json (docs/security.md), read defensively: a file that is not exactly what this
// version writes trusts nothing, so a tampered or half-written file can only ever make tools ask more.
//
// Version 2 pins, per folder, the workspace tools it held when the person trusted it (name and content pin): a tool
// that arrives or changes later is not trusted. A version 1 file (written before pins) is still read, but its
// folders pin nothing, so their tools ask until the person trusts the folder again; older Agenvoy versions read a
// version 2 file as damaged and trust nothing, never more.
import path from 'node:path';

/** A workspace tool as it was when its folder was trusted: its registered name and the pin of its content. */
export interface ToolPin {
  /** `script_<name>`. */
  name: string;
  /** sha256 (hex) of its tool folder's content (main/adapters/script/tool-pin.ts). */
  pin: string;
}

/** One folder the person trusted: its realpath when it was trusted, when, and the tools it then held. */
export interface TrustedFolder {
  path: string;
  /** ISO time of the last time the person trusted it. */
  trustedAt: string;
  /** The tools trusted with it; null for a folder trusted before tools were pinned (it must be trusted again). */
  tools: ToolPin[] | null;
}

/** The content of trusted-folders.json. */
export interface TrustFile {
  version: 2;
  folders: TrustedFolder[];
}

/** What reading the file found: its folders, or why it is damaged (then no folder is trusted). */
export type TrustFileState = { kind: 'ok'; file: TrustFile } | { kind: 'damaged'; problem: string };

/** The version this code writes. */
export const TRUST_FILE_VERSION = 2;

// Longer than any real path, short enough that a huge file cannot hide an entry behind noise.
const MAX_PATH_LENGTH = 4096;
const MAX_FOLDERS = 10_000;
// More tools than any folder holds; a bound so a crafted file cannot make every check slow.
const MAX_TOOLS = 1000;
const PIN_NAME = /^script_[A-Za-z0-9_-]{1,57}$/;
const PIN = /^[0-9a-f]{64}$/;
const FILE_KEYS = new Set(['version', 'folders']);
const ENTRY_KEYS = new Set(['path', 'trustedAt', 'tools']);
const PIN_KEYS = new Set(['name', 'pin']);

/** An empty file: nothing trusted. */
export function emptyTrustFile(): TrustFile {
  return { version: 2, folders: [] };
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
  const { version, folders } = raw as { version: 1 | 2; folders: Array<Record<string, unknown>> };
  return {
    kind: 'ok',
    file: {
      version: 2,
      folders: folders.map((entry) => ({
        path: entry.path as string,
        trustedAt: entry.trustedAt as string,
        // A version 1 entry pinned nothing: its folder must be trusted again before any of its tools is.
        tools:
          version === 1 || entry.tools === null
            ? null
            : (entry.tools as ToolPin[]).map((tool) => ({ name: tool.name, pin: tool.pin })),
      })),
    },
  };
}

function checkFile(raw: unknown): string | null {
  if (!isObject(raw)) return 'must hold a JSON object';
  if (raw.version !== 1 && raw.version !== TRUST_FILE_VERSION)
    return `unknown version ${JSON.stringify(raw.version)}`;
  const version = raw.version;
  if (version === TRUST_FILE_VERSION) {
    const extra = unknownKey(raw, FILE_KEYS);
    if (extra) return `unknown key ${extra}`;
  }
  if (!Array.isArray(raw.folders)) return '"folders" must be an array';
  if (raw.folders.length > MAX_FOLDERS) return `"folders" holds more than ${MAX_FOLDERS} entries`;
  for (const [i, entry] of raw.folders.entries()) {
    const problem = checkEntry(entry, version);
    if (problem) return `folders[${i}] ${problem}`;
  }
  return null;
}

function checkEntry(entry: unknown, version: 1 | 2): string | null {
  if (!isObject(entry)) return 'must be an object';
  const folder = entry.path;
  if (typeof folder !== 'string' || folder === '') return 'needs a "path"';
  if (folder.length > MAX_PATH_LENGTH || folder.includes('\0')) return '"path" is not a usable path';
  // Entries are written as realpaths: anything else was not written by Agenvoy.
  if (!path.isAbsolute(folder) || path.resolve(folder) !== folder)
    return '"path" must be an absolute, normal path';
  if (typeof entry.trustedAt !== 'string' || Number.isNaN(Date.parse(entry.trustedAt)))
    return 'needs a "trustedAt" time';
  if (version === 1) return null;
  const extra = unknownKey(entry, ENTRY_KEYS);
  if (extra) return `has an unknown key ${extra}`;
  return entry.tools === null ? null : checkPins(entry.tools);
}

function checkPins(tools: unknown): string | null {
  if (!Array.isArray(tools)) return '"tools" must be an array (or null for a folder to trust again)';
  if (tools.length > MAX_TOOLS) return `"tools" holds more than ${MAX_TOOLS} entries`;
  for (const [i, tool] of tools.entries()) {
    if (!isObject(tool) || unknownKey(tool, PIN_KEYS)) return `tools[${i}] must be { "name", "pin" }`;
    if (typeof tool.name !== 'string' || !PIN_NAME.test(tool.name))
      return `tools[${i}] needs a "name" like script_<name>`;
    if (typeof tool.pin !== 'string' || !PIN.test(tool.pin))
      return `tools[${i}] needs a "pin" of 64 hex digits`;
  }
  return null;
}

function unknownKey(object: Record<string, unknown>, known: Set<string>): string | null {
  const key = Object.keys(object).find((name) => !known.has(name));
  return key === undefined ? null : JSON.stringify(key.slice(0, 40));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
