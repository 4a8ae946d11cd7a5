// The folders whose workspace tools the person trusts (docs/security.md): $AGENVOY_HOME/desktop/trusted-folders.json,
// keyed by realpath, each with the tools it held when trusted (name and content pin). Only a person adds to it
// (`agenvoy trust add`, the app's trust dialog and Settings); nothing is ever trusted implicitly, and a tool that
// arrives or changes later is not covered. The file sits in the desktop folder, which the OS sandbox hides from
// commands and scripts.
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../atomic-write';
import type { ToolPin, TrustedFolder, TrustFile, TrustFileState } from './trust-file';
import { emptyTrustFile, parseTrustFile } from './trust-file';

/** The file name, in $AGENVOY_HOME/desktop. */
export const TRUST_FILE = 'trusted-folders.json';

/** Whether a folder is trusted, with which tools, and what stopped the answer from being known (a damaged file). */
export interface TrustCheck {
  /** The folder is trusted with a record of its tools: those tools, as pinned, are trusted. */
  trusted: boolean;
  /** Set when the file is damaged: then nothing is trusted, and the person should be told why. */
  problem: string | null;
  /** The tools pinned when the person last trusted the folder (null when it is not trusted). */
  tools: ToolPin[] | null;
  /** When the person last trusted it (also for a folder to trust again); null when never. */
  trustedAt: string | null;
  /** Set for a folder trusted before tools were recorded: none of its tools is trusted until it is trusted again. */
  retrust: string | null;
}

/** What a trust change did: the entry now, whether the folder is new to the file, and the entry it replaced. */
export interface TrustAdded {
  folder: TrustedFolder;
  added: boolean;
  previous: TrustedFolder | null;
}

/** A trust change that cannot be made: the folder is not a folder, or the file is damaged. */
export class TrustError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrustError';
  }
}

/** trusted-folders.json: every read sees changes other processes made (the CLI beside the app); writes are atomic. */
export class TrustedFolders {
  private cache: { stamp: string; state: TrustFileState } | null = null;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  /** The store of `$AGENVOY_HOME/desktop/trusted-folders.json` for a desktop folder. */
  static inDesktop(desktopDir: string): TrustedFolders {
    return new TrustedFolders(path.join(desktopDir, TRUST_FILE));
  }

  /** Reads the file (cached until it changes); a missing file trusts nothing and is not damaged. */
  async read(): Promise<TrustFileState> {
    let stamp: string;
    try {
      const stat = await fs.stat(this.file);
      stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch (error) {
      if (isMissing(error)) return { kind: 'ok', file: emptyTrustFile() };
      return { kind: 'damaged', problem: `cannot read ${this.file}: ${(error as Error).message}` };
    }
    if (this.cache?.stamp === stamp) return this.cache.state;
    const state = await this.load();
    this.cache = { stamp, state };
    return state;
  }

  /** Whether `folder` (resolved through symlinks) is exactly a trusted folder, and the tools trusted with it. */
  async check(folder: string): Promise<TrustCheck> {
    const none = { trusted: false, tools: null, trustedAt: null, retrust: null };
    const state = await this.read();
    if (state.kind === 'damaged') return { ...none, problem: `${state.problem}; nothing is trusted` };
    const real = await realFolder(folder);
    if (real === null) return { ...none, problem: null };
    const entry = state.file.folders.find((candidate) => candidate.path === real);
    if (!entry) return { ...none, problem: null };
    if (entry.tools === null) {
      return {
        ...none,
        problem: null,
        trustedAt: entry.trustedAt,
        retrust: retrustReason(real),
      };
    }
    return {
      trusted: true,
      problem: null,
      tools: entry.tools.map((tool) => ({ ...tool })),
      trustedAt: entry.trustedAt,
      retrust: null,
    };
  }

  /**
   * Trusts an existing folder by its realpath with exactly `tools` (the ones the person was shown); trusting it
   * again replaces the tools and the time, so what arrived meanwhile is trusted only now.
   */
  async add(folder: string, tools: readonly ToolPin[]): Promise<TrustAdded> {
    const real = await realFolder(folder);
    if (real === null) throw new TrustError(`${folder} is not a folder`);
    const pins = tools.map((tool) => ({ name: tool.name, pin: tool.pin }));
    return this.update((file) => {
      const entry: TrustedFolder = { path: real, trustedAt: new Date().toISOString(), tools: pins };
      const index = file.folders.findIndex((candidate) => candidate.path === real);
      const previous = index < 0 ? null : structuredClone(file.folders[index] as TrustedFolder);
      if (index < 0) file.folders.push(entry);
      else file.folders[index] = entry;
      return { folder: structuredClone(entry), added: index < 0, previous };
    });
  }

  /** Stops trusting a folder, named as trusted or by a path that leads to it; null when it was not trusted. */
  async revoke(folder: string): Promise<TrustedFolder | null> {
    const names = new Set([path.resolve(folder)]);
    const real = await realFolder(folder);
    if (real) names.add(real);
    return this.update((file) => {
      const removed = file.folders.find((entry) => names.has(entry.path)) ?? null;
      file.folders = file.folders.filter((entry) => !names.has(entry.path));
      return removed ? structuredClone(removed) : null;
    });
  }

  // Reads the file fresh, applies `change`, writes it atomically; one change at a time in this process.
  private update<T>(change: (file: TrustFile) => T): Promise<T> {
    const next = this.writing.then(async () => {
      this.cache = null;
      const state = await this.read();
      if (state.kind === 'damaged') {
        throw new TrustError(`${state.problem}; fix or remove the file to change trusted folders`);
      }
      const file = structuredClone(state.file);
      const result = change(file);
      await writeFileAtomic(this.file, JSON.stringify(file, null, 2) + '\n');
      this.cache = null;
      return result;
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<TrustFileState> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if (isMissing(error)) return { kind: 'ok', file: emptyTrustFile() };
      return { kind: 'damaged', problem: `cannot read ${this.file}: ${(error as Error).message}` };
    }
    return parseTrustFile(text, this.file);
  }
}

/** What to tell the person about a folder trusted before tools were recorded. */
export function retrustReason(folder: string): string {
  return (
    `${folder} was trusted by an earlier Agenvoy that did not record which tools it held, so none of them is ` +
    `trusted now: trust it again (agenvoy trust add ${folder}) after checking its tools`
  );
}

/** The realpath of an existing folder, or null. */
export async function realFolder(folder: string): Promise<string | null> {
  try {
    const real = await fs.realpath(path.resolve(folder));
    return (await fs.stat(real)).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
