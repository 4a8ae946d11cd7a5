// Whether a call of a tool that needs no approval names a sensitive target (docs/security.md, "Nothing skips the
// gate"), decided without the full check when it certainly does not. The full check (sensitive-targets.ts) resolves
// the workspace, the home's credential folders and $AGENVOY_HOME through every link, about 14 file-system look-ups and
// ~75 µs a call on this machine; a trusted MCP server's read-only tools run on every turn, and most of their
// arguments name nothing. This pass reads each string and word as text and looks at the disk once per word;
// whatever could lead the full check anywhere sends the call to it.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isInside } from './real-path';
import type { SensitiveOptions } from './sensitive-paths';
import { namedLocation } from './sensitive-paths';
import type { SensitiveTarget } from './sensitive-targets';
import { COMMAND_KEYS, DIRECTORY_KEYS, MAX_RESOLVED_WORDS, strings } from './sensitive-targets';
import { words } from './shell-words';
import { foldName } from '../../tools/sdk/name-fold';

/** The folder a stdio MCP server reads relative names from, when inside $AGENVOY_HOME, with the names in it. */
export interface AppFolder {
  root: string;
  names: Set<string>;
}

/** `pathsFrom` as an AppFolder, or null when it is not inside $AGENVOY_HOME (or holds nothing). */
export function appFolderOf(pathsFrom: string | undefined, options: SensitiveOptions): AppFolder | null {
  if (pathsFrom === undefined) return null;
  const root = path.resolve(pathsFrom);
  if (!isInside(root, path.resolve(options.agenvoyHome))) return null;
  const names = entriesOf(root);
  return names.size === 0 ? null : { root, names };
}

/**
 * One pass over a trusted call's strings and words: 'app' when one names something in the app's folder (see
 * appFolderTarget), 'check' when the full check could find a sensitive target, 'none' only when it certainly finds
 * none. `links`: the folder relative names are read from, looked in for links and hard links (null: the tool does not
 * read them there).
 */
export function quickLook(
  args: Record<string, unknown>,
  links: string | null,
  app: AppFolder | null,
): 'none' | 'check' | 'app' {
  const root = links === null ? null : path.resolve(links);
  let check = false;
  for (const [, key, value] of strings(args)) {
    if (COMMAND_KEYS.has(key) || DIRECTORY_KEYS.has(key)) check = true;
    let looked = 0;
    for (const word of candidates(value)) {
      // Past the words the full check resolves, it reads them by name only.
      const resolved = looked++ <= MAX_RESOLVED_WORDS;
      if (app && resolved && inAppFolder(word, app)) return 'app';
      if (check) continue;
      if (mayNameAsText(word) || (root !== null && resolved && linked(path.resolve(root, word))))
        check = true;
    }
  }
  return check ? 'check' : 'none';
}

/**
 * A name in `args` that exists in the app's folder a stdio MCP server runs in: it runs in the folder of mcp.json
 * unless told otherwise, so `read_file {"path": "desktop/agenvoy.db"}` reads the app's own chats there, though
 * nothing in it looks like a secret's name (`main/cli/trusted-mcp-secret-attack.test.ts`).
 */
export function appFolderTarget(
  args: Record<string, unknown>,
  app: AppFolder | null,
): SensitiveTarget | null {
  if (app === null) return null;
  for (const [where, , value] of strings(args)) {
    let looked = 0;
    for (const word of candidates(value)) {
      if (looked++ > MAX_RESOLVED_WORDS) break;
      if (inAppFolder(word, app))
        return {
          label: `Agenvoy's own folder ($AGENVOY_HOME: ${word} is read from ${app.root}, where this server runs)`,
          argument: where,
        };
    }
  }
  return null;
}

// A relative name whose first folder or file is one of the app folder's entries, and which is there. Most words are
// ruled out by the name alone, without the disk.
function inAppFolder(word: string, app: AppFolder): boolean {
  const relative = word.replace(/^(\.[/\\])+/, '');
  const first = relative.split(/[/\\]/, 1)[0] ?? '';
  if (first === '' || first === '.' || first === '..' || /^[~$]/.test(first) || path.isAbsolute(word))
    return false;
  return app.names.has(foldName(first)) && exists(path.join(app.root, relative));
}

// The names in a folder (folded as case-insensitive file systems compare them), read again once it changed: its
// modification time moves whenever an entry is added, removed or renamed. Looked at once a second at most, not once a
// call: right after the process wakes for a call the look cost ~5-10 µs here, and a look-up per word more. What may
// appear in $AGENVOY_HOME within that second comes from the person or the app only: no command and no tool of ours
// writes there (docs/security.md, "Files the tools write").
export const LISTING_FRESH_MS = 1000;
const listings = new Map<string, { changedNs: bigint; names: Set<string>; lookedAt: number }>();

function entriesOf(root: string): Set<string> {
  const known = listings.get(root);
  const now = performance.now();
  if (known && now - known.lookedAt < LISTING_FRESH_MS) return known.names;
  let stat: fs.BigIntStats | undefined;
  try {
    stat = fs.lstatSync(root, { bigint: true, throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  if (stat === undefined || !stat.isDirectory()) return new Set();
  if (known && known.changedNs === stat.mtimeNs) {
    known.lookedAt = now;
    return known.names;
  }
  let names: Set<string>;
  try {
    names = new Set(fs.readdirSync(root).map((name) => foldName(name)));
  } catch {
    return new Set();
  }
  if (listings.size > 16) listings.clear();
  listings.set(root, { changedNs: stat.mtimeNs, names, lookedAt: now });
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
