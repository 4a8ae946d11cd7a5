// A small JSON file the app and the CLI beside it both change (approval-rules.json, trusted-folders.json): every
// read sees what another process wrote (cached until the file's stamp changes), a file too large is damaged without
// being read, each change reads the file fresh and is written atomically, one change at a time in this process.
import fs from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write';
import { fileStamp } from './file-stamp';
import { FileTooLargeError, NOT_A_REGULAR_FILE, readRegularFile } from './regular-file';

/** What reading found: the file's content, or why it cannot be used. */
export type JsonFileState<F> = { kind: 'ok'; file: F } | { kind: 'damaged'; problem: string };

/** How one kind of file is read. */
export interface JsonFileKind<F> {
  /** What a missing file counts as. */
  empty: () => F;
  /** Checks the text of the file (`file` names it in problems). */
  parse: (text: string, file: string) => JsonFileState<F> | Promise<JsonFileState<F>>;
  /** A larger file is damaged and never read. */
  maxBytes: number;
  /** What a file this size is called in the problem, e.g. "a rules file". */
  noun: string;
  /** The error a change of a damaged file throws, given the problem. */
  damagedError: (problem: string) => Error;
}

/** One JSON file on disk, read fresh when it changes and changed atomically. */
export class JsonFileStore<F> {
  private cache: { stamp: string; state: JsonFileState<F> } | null = null;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly kind: JsonFileKind<F>,
  ) {}

  /** Reads the file (cached while its stamp holds: main/core/file-stamp.ts); a missing file is the empty one. */
  async read(): Promise<JsonFileState<F>> {
    let stat;
    try {
      stat = await fs.stat(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'ok', file: this.kind.empty() };
      return { kind: 'damaged', problem: `cannot read ${this.file}: ${(error as Error).message}` };
    }
    // A file changed in the last moments has no stamp and is read again (main/core/file-stamp.ts): another process's
    // rewrite of the same size within one tick of the file clock must not be served from the old reading.
    if (!stat.isFile())
      return { kind: 'damaged', problem: `cannot read ${this.file}: ${NOT_A_REGULAR_FILE}` };
    const stamp = fileStamp(stat);
    if (stamp !== null && this.cache?.stamp === stamp) return this.cache.state;
    const state = stat.size > this.kind.maxBytes ? this.tooLarge(stat.size) : await this.load();
    this.cache = stamp === null ? null : { stamp, state };
    return state;
  }

  /** Reads the file fresh, applies `change` to a copy and writes the result atomically; one change at a time. */
  update<T>(change: (file: F) => T): Promise<T> {
    const next = this.writing.then(async () => {
      this.cache = null;
      const state = await this.read();
      if (state.kind === 'damaged') throw this.kind.damagedError(state.problem);
      const file = structuredClone(state.file);
      const result = change(file);
      await writeFileAtomic(this.file, JSON.stringify(file, null, 2) + '\n');
      this.cache = null;
      return result;
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  private tooLarge(size: number): JsonFileState<F> {
    const limit = `${Math.round(this.kind.maxBytes / (1024 * 1024))} MiB`;
    return {
      kind: 'damaged',
      problem: `${this.file} is ${size} bytes, more than ${this.kind.noun} can be (${limit})`,
    };
  }

  private async load(): Promise<JsonFileState<F>> {
    let text: string;
    try {
      text = await readRegularFile(this.file, this.kind.maxBytes);
    } catch (error) {
      if (error instanceof FileTooLargeError) return this.tooLarge(error.size);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'ok', file: this.kind.empty() };
      return { kind: 'damaged', problem: `cannot read ${this.file}: ${(error as Error).message}` };
    }
    return this.kind.parse(text, this.file);
  }
}
