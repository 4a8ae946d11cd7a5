// The folders whose workspace tools the person trusts (docs/security.md): $AGENVOY_HOME/desktop/trusted-folders.json,
// keyed by realpath, each with the tools it held when trusted (name and content pin). Only a person adds to it
// (`agenvoy trust add`, the app's trust dialog and Settings); nothing is ever trusted implicitly, and a tool that
// arrives or changes later is not covered. The file sits in the desktop folder, which the OS sandbox hides from
// commands and scripts.
import fs from 'node:fs/promises';
import path from 'node:path';
import { JsonFileStore } from '../json-file-store';
import type { ToolPin, TrustedFolder, TrustFile, TrustFileState } from './trust-file';
import { emptyTrustFile, MAX_TRUST_FILE_BYTES } from './trust-file-limits';

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
  private readonly store: JsonFileStore<TrustFile>;

  constructor(readonly file: string) {
    this.store = new JsonFileStore(file, {
      empty: emptyTrustFile,
      // The parser (zod) loads with the first file there is to read.
      parse: async (text, file) => (await import('./trust-file')).parseTrustFile(text, file),
      maxBytes: MAX_TRUST_FILE_BYTES,
      noun: 'a trust file',
      damagedError: (problem) =>
        new TrustError(`${problem}; fix or remove the file to change trusted folders`),
    });
  }

  /** The store of `$AGENVOY_HOME/desktop/trusted-folders.json` for a desktop folder. */
  static inDesktop(desktopDir: string): TrustedFolders {
    return new TrustedFolders(path.join(desktopDir, TRUST_FILE));
  }

  /** Reads the file (cached until it changes); a missing file trusts nothing and is not damaged. */
  read(): Promise<TrustFileState> {
    return this.store.read();
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
    return this.store.update(change);
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
