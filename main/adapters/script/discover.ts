// Finds the script tools of the scan folders (docs/tools.md, "Script tools"): one tool per sub-folder with tool.json and
// script.js or script.py; a broken folder becomes a problem and the others still load.
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mapBounded } from '../../core/map-bounded';
import { agenvoyHome } from '../../core/paths';
import { FileTooLargeError, readRegularFile } from '../../core/regular-file';
import { formatBytes } from '../../core/schema-bounds';
import { MAX_MANIFEST_BYTES, SCRIPT_PREFIX } from './manifest-limits';
import type { ScanDir, ScriptLanguage, ScriptProblem, ScriptScope, ScriptTool } from './types';
import { foldToolName } from './lookalike-names';
import { resolveWritable } from './writable-paths';

/** Tool folders read at once by a scan. */
const SCAN_CONCURRENCY = 16;

/** The tools and problems of one or more scan folders. */
export interface Discovery {
  tools: ScriptTool[];
  problems: ScriptProblem[];
}

/** How a scan folder's tools load: whether they are trusted, and where `~` and $AGENVOY_HOME are. */
export interface LoadOptions {
  /** Default: true for the global scope, false for a workspace (docs/security.md: trust is given, never assumed). */
  trusted?: boolean;
  /** The home folder `~` expands to in `writable` (default os.homedir()). */
  homeDir?: string;
  /** $AGENVOY_HOME, whose own files a `writable` entry may not reach (default from the environment). */
  agenvoyHome?: string;
}

/** The most tool folders one scan folder loads, the first by name (MCP servers are held to 2,000 tools each). */
export const MAX_TOOL_FOLDERS = 5000;
/** The most entries of one scan folder read at all: a folder of a million names is not listed whole. */
export const MAX_FOLDER_ENTRIES = 20_000;

/**
 * The most bytes of tool.json one scan folder loads together, the first folders by name: each may hold 1 MiB, so
 * 5,000 of them were gigabytes read, compiled and indexed when a hostile repository opened (as MCP servers' lists).
 */
export const MAX_SCAN_BYTES = 16 * 1024 * 1024;

/** Bounds of one scan (the defaults above; tests lower them). */
export interface ScanLimits {
  folders: number;
  entries: number;
  /** Bytes of tool.json together (default MAX_SCAN_BYTES). */
  bytes?: number;
}

/** Reads one scan folder; a folder that does not exist yet has no tools and no problems. */
export async function scanDir(
  scan: ScanDir,
  options: LoadOptions = {},
  limits: ScanLimits = { folders: MAX_TOOL_FOLDERS, entries: MAX_FOLDER_ENTRIES },
): Promise<Discovery> {
  const problems: ScriptProblem[] = [];
  const problem = (reason: string): ScriptProblem => ({
    dir: scan.dir,
    file: scan.dir,
    reason,
    scope: scan.scope,
  });
  const entries: Dirent[] = [];
  try {
    // Read in batches and stopped at the bound: a hostile repository's folder of a million names costs no more than
    // the bound (leaving the loop closes the folder).
    for await (const entry of await fs.opendir(scan.dir, { bufferSize: 256 })) {
      if (entries.length >= limits.entries) {
        problems.push(
          problem(
            `holds more than ${limits.entries.toLocaleString('en-US')} entries: only the first ` +
              `${limits.entries.toLocaleString('en-US')} read are considered`,
          ),
        );
        break;
      }
      entries.push(entry);
    }
  } catch (error) {
    if (isMissing(error)) return { tools: [], problems: [] };
    return { tools: [], problems: [problem(`cannot read: ${message(error)}`)] };
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // `_shared` and `.git` style folders hold helpers, not tools; a loose file is not a tool.
  let folders = entries.filter(
    (entry) =>
      !entry.name.startsWith('_') &&
      !entry.name.startsWith('.') &&
      (entry.isDirectory() || entry.isSymbolicLink()),
  );
  if (folders.length > limits.folders) {
    problems.push(
      problem(
        `holds ${folders.length.toLocaleString('en-US')} tool folders: the first ` +
          `${limits.folders.toLocaleString('en-US')} by name are loaded, the rest are not`,
      ),
    );
    folders = folders.slice(0, limits.folders);
  }
  // Folders load a few at a time: each is a handful of small reads, and one by one the scan would wait on the disk
  // for each in turn. The results keep the folders' sorted order, which decides between duplicate names.
  // Folders are taken in order, so one skipped because the bytes before it are spent is past the bound anyway.
  const budget = limits.bytes ?? MAX_SCAN_BYTES;
  const sizes = new Array<number>(folders.length).fill(0);
  let spent = 0;
  const loaded = await mapBounded(folders, SCAN_CONCURRENCY, async (entry, index) => {
    if (spent > budget) return null;
    const dir = path.join(scan.dir, entry.name);
    // The entry's own type spares a stat; a symlink is followed (a symlinked tool folder is a tool folder).
    const folder = entry.isDirectory() || (await fs.stat(dir).catch(() => null))?.isDirectory() === true;
    if (!folder) return null;
    sizes[index] = (await fs.lstat(path.join(dir, 'tool.json')).catch(() => null))?.size ?? 0;
    spent += sizes[index];
    return loadToolFolder(dir, scan.scope, options);
  });
  let total = 0;
  const past = sizes.findIndex((size) => (total += size) > budget);
  if (past >= 0) {
    problems.push(
      problem(
        `its tool.json files are more than ${formatBytes(budget)} together: ` +
          `"${folders[past]?.name}" and the ${(folders.length - past - 1).toLocaleString('en-US')} folders after it are not loaded`,
      ),
    );
    loaded.length = past;
  }
  const found: Discovery = { tools: [], problems };
  for (const result of loaded) {
    if (result === null) continue;
    if ('reason' in result) found.problems.push(result);
    else found.tools.push(result);
  }
  return found;
}

/** Loads one tool folder: its tool, or the problem that stops it. */
export async function loadToolFolder(
  dir: string,
  scope: ScriptScope,
  options: LoadOptions = {},
): Promise<ScriptTool | ScriptProblem> {
  const manifestFile = path.join(dir, 'tool.json');
  let text: string;
  try {
    // A workspace's tool.json is never read through a link: a hostile repository could point it at a private file,
    // whose first characters the parse error would then carry into the log.
    const read = await readBounded(manifestFile, MAX_MANIFEST_BYTES, { noFollow: scope === 'workspace' });
    if (read === null) {
      return {
        dir,
        file: manifestFile,
        reason: `tool.json is larger than ${formatBytes(MAX_MANIFEST_BYTES)}; the limit is ${formatBytes(MAX_MANIFEST_BYTES)}`,
        scope,
      };
    }
    text = read;
  } catch (error) {
    const reason = isMissing(error) ? 'missing tool.json' : `cannot read tool.json: ${message(error)}`;
    return { dir, file: manifestFile, reason, scope };
  }
  // The parser (zod) loads with the first tool.json there is to read.
  const { parseManifest } = await import('./tool-manifest');
  const parsed = parseManifest(text);
  if (!parsed.ok) return { dir, file: manifestFile, reason: parsed.reason, scope };

  const scripts = await Promise.all(
    (['js', 'py'] as const).map(async (language) => {
      const file = path.join(dir, `script.${language}`);
      const stat = await fs.stat(file).catch(() => null);
      return stat?.isFile() ? { language, file, stat } : null;
    }),
  );
  const present = scripts.filter((s) => s !== null);
  const chosen = present[0];
  if (!chosen) {
    return {
      dir,
      file: path.join(dir, 'script.js'),
      reason: 'missing script: add script.js (node) or script.py (python3)',
      scope,
    };
  }
  // Two scripts are refused rather than one preferred: a Python tool that could plant a script.js (its folder is
  // writable to it) would otherwise swap in code that was never approved (docs/security.md).
  if (present.length > 1) {
    return {
      dir,
      file: path.join(dir, 'script.js'),
      reason: 'both script.js and script.py exist: keep the one this tool runs and remove the other',
      scope,
    };
  }
  const warnings = [...parsed.warnings];
  let writable: string[] = [];
  if (scope === 'global') {
    const resolved = await resolveWritable(parsed.manifest.writable, {
      toolDir: dir,
      homeDir: options.homeDir ?? os.homedir(),
      agenvoyHome: options.agenvoyHome ?? agenvoyHome(),
    });
    if (!resolved.ok) return { dir, file: manifestFile, reason: resolved.reason, scope };
    writable = resolved.paths;
  } else if (parsed.manifest.writable.length > 0) {
    // A cloned repository must not widen its own sandbox: a workspace tool writes the workspace and nothing else.
    warnings.push('"writable" ignored: a workspace tool may write only the workspace');
  }

  const fingerprint = createHash('sha256')
    .update(text)
    .update(`\0${chosen.file}\0${chosen.stat.size}\0${chosen.stat.mtimeMs}\0${chosen.stat.ino}`)
    .digest('hex');
  return {
    toolName: SCRIPT_PREFIX + parsed.manifest.name,
    dir,
    scope,
    manifest: parsed.manifest,
    script: { path: chosen.file, language: chosen.language as ScriptLanguage },
    trusted: options.trusted ?? scope === 'global',
    writable,
    fingerprint,
    warnings,
  };
}

/**
 * Picks one tool per name across scan folders: within a folder the first sub-folder (by name) wins
 * and the others are problems; a trusted workspace tool overrides a global one of the same name, an untrusted
 * one never does (the global tool stays and the workspace folder is a problem saying why).
 */
export function resolveTools(
  scans: Discovery[],
  builtins: ReadonlyMap<string, string> = new Map(),
): Discovery & { overridden: ScriptTool[] } {
  const problems = scans.flatMap((scan) => scan.problems);
  const chosen = new Map<string, ScriptTool>();
  const overridden: ScriptTool[] = [];
  const globals = new Map<string, string>();
  for (const scope of ['global', 'workspace'] as const) {
    const inScope = new Map<string, ScriptTool>();
    for (const tool of scans.flatMap((scan) => scan.tools).filter((t) => t.scope === scope)) {
      const first = inScope.get(tool.toolName);
      if (first) {
        problems.push({
          dir: tool.dir,
          file: path.join(tool.dir, 'tool.json'),
          reason: `duplicate name "${tool.manifest.name}": ${first.dir} already defines it`,
          scope,
        });
        continue;
      }
      inScope.set(tool.toolName, tool);
      const global = chosen.get(tool.toolName);
      if (global && !tool.trusted) {
        // A cloned repository could otherwise stand in for a tool the person approved (docs/security.md).
        problems.push({
          dir: tool.dir,
          file: path.join(tool.dir, 'tool.json'),
          reason: tool.untrusted
            ? `not loaded: "${tool.manifest.name}" does not replace the global tool of that name (${global.dir}) ` +
              `because it ${tool.untrusted}`
            : `not loaded: this workspace folder is not trusted, so its "${tool.manifest.name}" does not replace ` +
              `the global tool of that name (${global.dir}); trust the folder with agenvoy trust add to use it`,
          scope,
        });
        continue;
      }
      const mimicked = global || tool.trusted ? null : lookalikeOf(tool, globals, builtins);
      if (mimicked) {
        problems.push({ dir: tool.dir, file: path.join(tool.dir, 'tool.json'), reason: mimicked, scope });
        continue;
      }
      if (global) overridden.push(global);
      chosen.set(tool.toolName, tool);
    }
    if (scope === 'global')
      for (const tool of chosen.values()) globals.set(foldToolName(tool.manifest.name), tool.manifest.name);
  }
  return { tools: [...chosen.values()], problems, overridden };
}

// Why an untrusted workspace tool is not loaded when its name reads as a global tool's or a built-in's in another
// spelling (lookalike-names.ts): beside it, find_tools would rank it level with the tool it mimics.
function lookalikeOf(
  tool: ScriptTool,
  globals: ReadonlyMap<string, string>,
  builtins: ReadonlyMap<string, string>,
): string | null {
  const folded = foldToolName(tool.manifest.name);
  const global = globals.get(folded);
  const builtin = builtins.get(folded);
  const what = global ? `the global tool "${global}"` : builtin ? `the built-in tool "${builtin}"` : null;
  if (!what) return null;
  return (
    `not loaded: "${tool.manifest.name}" looks like ${what}, and this workspace tool is not trusted ` +
    `(${tool.untrusted ? `it ${tool.untrusted}` : 'trust the folder with agenvoy trust add to use it'})`
  );
}

/**
 * A tool.json's text, or null when it holds more than `limit` bytes; never reads more than limit + 1 bytes, and throws
 * for anything but a regular file (a fifo named tool.json, a hostile repository's, is never waited on:
 * main/core/regular-file.ts).
 */
export async function readBounded(
  file: string,
  limit: number,
  options: { noFollow?: boolean } = {},
): Promise<string | null> {
  try {
    return await readRegularFile(file, limit, options);
  } catch (error) {
    if (error instanceof FileTooLargeError) return null;
    if (options.noFollow && (error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new Error('it is a link (a workspace tool.json must be a file)');
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
