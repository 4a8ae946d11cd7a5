// The folders whose workspace tools the person trusts (docs/security.md): $AGENVOY_HOME/desktop/trusted-folders.json,
// keyed by realpath. Only a person adds to it (`agenvoy trust add`, the app's trust dialog and Settings); nothing is
// ever trusted implicitly. The file sits in the desktop folder, which the OS sandbox hides from commands and scripts.
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../core/atomic-write';
import type { TrustedFolder, TrustFile, TrustFileState } from './trust-file';
import { emptyTrustFile, parseTrustFile } from './trust-file';

/** The file name, in $AGENVOY_HOME/desktop. */
export const TRUST_FILE = 'trusted-folders.json';

/** Whether a folder is trusted, and what stopped the answer from being known (a damaged file). */
export interface TrustCheck {
  trusted: boolean;
  /** Set when the file is damaged: then nothing is trusted, and the person should be told why. */
  problem: string | null;
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

  /** Whether `folder` (resolved through symlinks) is exactly a trusted folder; a folder that is gone is not. */
  async check(folder: string): Promise<TrustCheck> {
    const state = await this.read();
    if (state.kind === 'damaged') return { trusted: false, problem: `${state.problem}; nothing is trusted` };
    const real = await realFolder(folder);
    if (real === null) return { trusted: false, problem: null };
    return { trusted: state.file.folders.some((entry) => entry.path === real), problem: null };
  }

  /** Trusts an existing folder by its realpath; trusting it again keeps the first time. */
  async add(folder: string): Promise<{ folder: TrustedFolder; added: boolean }> {
    const real = await realFolder(folder);
    if (real === null) throw new TrustError(`${folder} is not a folder`);
    return this.update((file) => {
      const known = file.folders.find((entry) => entry.path === real);
      if (known) return { folder: { ...known }, added: false };
      const entry: TrustedFolder = { path: real, trustedAt: new Date().toISOString() };
      file.folders.push(entry);
      return { folder: { ...entry }, added: true };
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
      return removed ? { ...removed } : null;
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
