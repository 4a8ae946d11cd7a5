// Whether a call of a tool that needs no approval names a sensitive target (docs/security.md, "Nothing skips the
// gate"), decided without the full check when it certainly does not. The full check (sensitive-targets.ts) resolves
// the workspace, the home's credential folders and $AGENVOY_HOME through every link, about 14 file-system look-ups and
// ~75 µs a call on this machine; a trusted MCP server's read-only tools run on every turn, and most of their
// arguments name nothing. This pass reads each string and word as text and looks at the disk once per word;
// whatever could lead the full check anywhere sends the call to it.
import fs from 'node:fs';
import path from 'node:path';
import { isInside } from './real-path';
import type { SensitiveOptions } from './sensitive-paths';
import { namedLocation } from './sensitive-paths';
import type { SensitiveTarget } from './sensitive-targets';
import { COMMAND_KEYS, DIRECTORY_KEYS, MAX_RESOLVED_WORDS, strings } from './sensitive-targets';
import { words } from './shell-words';
import { foldName } from '../../tools/sdk/name-fold';

/**
 * False only when the full check would find no sensitive target in `args`; true sends the call to it. `links`: the
 * folder relative names are read from, looked in for links and hard links (null: the tool does not read them there).
 */
export function mayNameSensitiveTarget(args: Record<string, unknown>, links: string | null): boolean {
  const root = links === null ? null : path.resolve(links);
  for (const [, key, value] of strings(args)) {
    if (COMMAND_KEYS.has(key) || DIRECTORY_KEYS.has(key)) return true;
    let looked = 0;
    for (const word of candidates(value)) {
      if (mayNameAsText(word)) return true;
      // Past the words the full check resolves, it reads them by name only.
      if (root !== null && looked++ <= MAX_RESOLVED_WORDS && linked(path.resolve(root, word))) return true;
    }
  }
  return false;
}

/**
 * A name in `args` that exists in `pathsFrom` when that folder is inside $AGENVOY_HOME: a stdio MCP server runs in
 * the folder of mcp.json unless told otherwise, so `read_file {"path": "desktop/agenvoy.db"}` reads the app's own
 * chats there, though nothing in it looks like a secret's name (`main/cli/trusted-mcp-secret-attack.test.ts`).
 */
export function appFolderTarget(
  args: Record<string, unknown>,
  pathsFrom: string | undefined,
  options: SensitiveOptions,
): SensitiveTarget | null {
  if (pathsFrom === undefined) return null;
  const root = path.resolve(pathsFrom);
  if (!isInside(root, path.resolve(options.agenvoyHome))) return null;
  const names = entriesOf(root);
  if (names.size === 0) return null;
  for (const [where, , value] of strings(args)) {
    let looked = 0;
    for (const word of candidates(value)) {
      if (looked++ > MAX_RESOLVED_WORDS) break;
      if (/^[~$/\\]/.test(word) || path.isAbsolute(word)) continue;
      const file = path.resolve(root, word);
      if (file === root || !isInside(file, root)) continue;
      // Only a name under one of the folder's entries can be there: most words are ruled out without the disk.
      const first = path.relative(root, file).split(path.sep)[0] as string;
      if (names.has(foldName(first)) && exists(file))
        return {
          label: `Agenvoy's own folder ($AGENVOY_HOME: ${word} is read from ${root}, where this server runs)`,
          argument: where,
        };
    }
  }
  return null;
}

// The names in a folder (folded as case-insensitive file systems compare them), read again only when the folder
// changed: its modification time moves whenever an entry is added, removed or renamed. One look at the folder a call
// instead of one per word; a look-up of a name that is not there cost ~8-10 µs on this machine.
const listings = new Map<string, { changedNs: bigint; names: Set<string> }>();

function entriesOf(root: string): Set<string> {
  let stat: fs.BigIntStats | undefined;
  try {
    stat = fs.lstatSync(root, { bigint: true, throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  if (stat === undefined || !stat.isDirectory()) return new Set();
  const known = listings.get(root);
  if (known && known.changedNs === stat.mtimeNs) return known.names;
  let names: Set<string>;
  try {
    names = new Set(fs.readdirSync(root).map((name) => foldName(name)));
  } catch {
    return new Set();
  }
  if (listings.size > 16) listings.clear();
  listings.set(root, { changedNs: stat.mtimeNs, names });
  return names;
}

// The value as a whole (a name with spaces) and word by word, as the full check reads it.
function candidates(value: string): Set<string> {
  const whole = value.length <= 4096 && !/[\n\r]/.test(value) ? [value] : [];
  return new Set([...whole, ...words(value)]);
}

// A sensitive name (also as a glob), a path from `~`, `$HOME` or the root, one with folders in it (any of which may
// be a link), or one that climbs out of the folder it is read from.
function mayNameAsText(word: string): boolean {
  if (word === '') return false;
  const first = word[0];
  if (first === '~' || first === '$' || first === '/' || first === '\\' || word.startsWith('..')) return true;
  if (word.includes('/') || word.includes('\\') || path.isAbsolute(word)) return true;
  return namedLocation(word) !== null;
}

// A link (wherever it leads), or a file with more than one name (its other name may be a secret file's).
function linked(file: string): boolean {
  const stat = lstat(file);
  return stat !== undefined && (stat.isSymbolicLink() || (stat.isFile() && stat.nlink > 1));
}

function exists(file: string): boolean {
  return lstat(file) !== undefined;
}

function lstat(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file, { throwIfNoEntry: false });
  } catch {
    // Not a name the file system can hold (too long, a NUL): nothing is there.
    return undefined;
  }
}
