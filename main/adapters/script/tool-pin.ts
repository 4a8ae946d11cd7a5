// The content pin of a workspace tool (docs/security.md, "Workspace trust"): what trusting a folder records of each
// of its tools, so a tool that arrives or changes later is not trusted. It covers everything the tool folder holds
// (tool.json, the script, helper files, at any depth) and everything else in its scan folder that a script may load
// (helper folders whatever their names, `lib/`, loose files, `package.json`, `node_modules`, the other tools'
// folders): names, file bytes and symlink texts. So any change in the scan folder withdraws trust in its tools until
// the person trusts the folder again. Not mtimes or inodes, so a fresh clone or checkout of the
// same files pins the same. Code a script loads from elsewhere (the workspace's node_modules) is not covered. A link
// is pinned by its text only, so one whose target lies outside what the pin reads (`script.js -> ../../../src/x.js`)
// would let a later change of that file run as trusted code: such a tool cannot be pinned, and so is never trusted.
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileStamp } from '../../core/file-stamp';

/** The most files (and folders) one tool's pin reads in its scan folder (and again in its own folder). */
export const MAX_PIN_FILES = 4096;
/** The most bytes one tool's pin reads. */
export const MAX_PIN_BYTES = 32 * 1024 * 1024;

// How old a file's last change must be before its digest is reused.
const SETTLED_MS = 2000;

/** A tool folder's pin, or why it cannot be pinned (then trusting its folder does not cover it). */
export type PinResult = { ok: true; pin: string } | { ok: false; reason: string };

// The scan folder's entries and the digest of them all, shared by the pins of its tools.
interface ScanFolder {
  entries: Entry[];
  digest: string;
}

// One entry of a folder's content: its kind and name, and the digest of the file or the link's text.
interface Entry {
  /** The path from the tool folder (a helper folder's as `../_shared/…`). */
  relative: string;
  line: string;
  bytes: number;
  link?: boolean;
}

/**
 * Why `toolDir`'s pin would not cover what a link among `entries` leads to: its real target lies outside the tool
 * folder and the helper entries read with it, or cannot be found (it may be made later, anywhere). Null when every
 * link stays inside what the pin reads.
 */
async function linkOutside(toolDir: string, entries: readonly Entry[]): Promise<string | null> {
  const links = entries.filter((entry) => entry.link);
  if (links.length === 0) return null;
  const scanDir = path.dirname(toolDir);
  const roots = await Promise.all(
    [
      toolDir,
      ...entries
        .filter((entry) => !entry.link && /^\.\.\/[^/]+$/.test(entry.relative))
        .map((entry) => path.join(scanDir, entry.relative.slice(3))),
    ].map((root) => fs.realpath(root).catch(() => null)),
  );
  for (const entry of links) {
    const target = await fs.realpath(path.resolve(toolDir, entry.relative)).catch(() => null);
    const inside =
      target !== null &&
      roots.some((root) => root !== null && (target === root || target.startsWith(root + path.sep)));
    if (!inside)
      return `its ${entry.relative} is a link ${target === null ? 'to nothing' : `to ${target}`}, outside the files trusting pins, so a later change there would run unpinned`;
  }
  return null;
}

/**
 * Pins tool folders. File digests are cached by the file's identity and change stamps (size, mtime, ctime, inode),
 * so a rescan every few seconds reads only what changed; ctime moves on every write and cannot be set back by a
 * process, so a rewritten file is always read again (and one changed in the last two seconds is never taken from
 * the cache).
 */
export class ToolPinner {
  private readonly digests = new Map<string, { stamp: string; digest: string }>();

  /** The pins of `toolDirs`, all in the scan folder `scanDir`, by tool folder. */
  async pinAll(scanDir: string, toolDirs: readonly string[]): Promise<Map<string, PinResult>> {
    const pins = new Map<string, PinResult>();
    if (toolDirs.length === 0) return pins;
    const shared = await this.scanFolder(scanDir);
    for (const dir of toolDirs) pins.set(dir, await this.pinWith(dir, shared));
    return pins;
  }

  /** The pin of one tool folder in its scan folder. */
  async pin(toolDir: string): Promise<PinResult> {
    return this.pinWith(toolDir, await this.scanFolder(path.dirname(toolDir)));
  }

  private async pinWith(toolDir: string, shared: ScanFolder | string): Promise<PinResult> {
    // The tool's own folder is in the scan folder's entries too: it is walked again for its links' sake, and first,
    // so that a problem of its own is named as its own.
    const own = await this.walk(toolDir, '', MAX_PIN_FILES).catch((error: Error) => error.message);
    if (typeof own === 'string') return { ok: false, reason: own };
    if (typeof shared === 'string') return { ok: false, reason: shared };
    const outside = await linkOutside(toolDir, [...own, ...shared.entries]);
    if (outside) return { ok: false, reason: outside };
    const hash = createHash('sha256').update('agenvoy-tool-pin-2\n');
    for (const entry of own) hash.update(entry.line);
    hash.update(`s ${shared.digest}\n`);
    return { ok: true, pin: hash.digest('hex') };
  }

  // Every entry of the scan folder under `../` and one digest of them all; a reason when unreadable or too large.
  private async scanFolder(scanDir: string): Promise<ScanFolder | string> {
    const entries = await this.helpers(scanDir);
    if (typeof entries === 'string') return entries;
    const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
    if (bytes > MAX_PIN_BYTES)
      return `its scan folder's files hold more than ${MAX_PIN_BYTES / 1024 / 1024} MiB`;
    const hash = createHash('sha256');
    for (const entry of entries) hash.update(entry.line);
    return { entries, digest: hash.digest('hex') };
  }

  // Every entry of the scan folder (the tools' folders and whatever else scripts may load), under `../`; a reason
  // when unreadable or too many.
  private async helpers(scanDir: string): Promise<Entry[] | string> {
    try {
      const names = await fs.readdir(scanDir);
      const entries: Entry[] = [];
      for (const name of names.sort()) {
        const found = await this.entry(
          path.join(scanDir, name),
          `../${name}`,
          MAX_PIN_FILES - entries.length,
        );
        entries.push(...found);
      }
      return entries;
    } catch (error) {
      // The scan folder's size is not the tool's own: say whose it is.
      return (error as Error).message.replace(/^it holds/, 'its scan folder holds');
    }
  }

  // Every entry below `dir`, sorted, depth first; throws with a reason when there are more than `budget`.
  private async walk(dir: string, prefix: string, budget: number): Promise<Entry[]> {
    const names = (await fs.readdir(dir)).sort();
    const entries: Entry[] = [];
    for (const name of names) {
      const relative = prefix === '' ? name : `${prefix}/${name}`;
      entries.push(...(await this.entry(path.join(dir, name), relative, budget - entries.length)));
    }
    return entries;
  }

  // One path and, for a folder, what it holds. Links are recorded by their text and never followed (where they lead is
  // checked once the whole pin is read: linkOutside); a fifo or a socket by its kind only (opening a fifo would block).
  private async entry(file: string, relative: string, budget: number): Promise<Entry[]> {
    if (budget <= 0) throw new Error(`it holds more than ${MAX_PIN_FILES} files and folders`);
    const stat = await fs.lstat(file);
    const name = JSON.stringify(relative);
    if (stat.isDirectory()) {
      const inside = await this.walk(file, relative, budget - 1);
      return [{ relative, line: `d ${name}\n`, bytes: 0 }, ...inside];
    }
    if (stat.isSymbolicLink())
      return [
        { relative, line: `l ${name} ${JSON.stringify(await fs.readlink(file))}\n`, bytes: 0, link: true },
      ];
    if (!stat.isFile()) return [{ relative, line: `o ${name}\n`, bytes: 0 }];
    if (stat.size > MAX_PIN_BYTES)
      throw new Error(`${relative} is larger than ${MAX_PIN_BYTES / 1024 / 1024} MiB`);
    return [{ relative, line: `f ${name} ${await this.digest(file, stat)}\n`, bytes: stat.size }];
  }

  private async digest(file: string, stat: Stats): Promise<string> {
    // A file changed in the last moments has no stamp and is always read (main/core/file-stamp.ts).
    const stamp = fileStamp(stat, SETTLED_MS);
    const known = this.digests.get(file);
    if (stamp !== null && known?.stamp === stamp) return known.digest;
    // Never through a link, never blocking on a fifo swapped in since the lstat: only the file that was looked at.
    const handle = await fs.open(
      file,
      constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
    );
    let digest: string;
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.ino !== stat.ino || opened.dev !== stat.dev)
        throw new Error(`${file} changed while it was being read`);
      digest = createHash('sha256')
        .update(await handle.readFile())
        .digest('hex');
    } finally {
      await handle.close();
    }
    // A cache, not a record: a folder of churning files must not grow it without end.
    if (this.digests.size > 20_000) this.digests.clear();
    // Stamped before the read: a write during it moves ctime, and the next pin reads the file again.
    if (stamp !== null) this.digests.set(file, { stamp, digest });
    else this.digests.delete(file);
    return digest;
  }
}
