// The file fallback `$AGENVOY_HOME/.secrets`: `KEY=value` lines, rewritten atomically with mode 0600.
import { writeFileAtomic } from '../core/atomic-write';
import { readRegularFile, readRegularFileSync } from '../core/regular-file';
import { SecretStoreError } from './key-name';

/** The permission bits of the secrets file: owner read/write only. */
export const SECRETS_FILE_MODE = 0o600;

/** The most bytes the secrets file may hold (thousands of keys); it is read whole, also at start-up. */
const MAX_SECRETS_FILE_BYTES = 16 * 1024 * 1024;

/** Reads and rewrites one `KEY=value` file; blank lines and `#` comments survive a rewrite. */
export class SecretsFile {
  /** `onValue` is told every entry read, so a value is scrubbed before anything has used it (docs/security.md). */
  constructor(
    readonly file: string,
    private readonly onValue?: (key: string, value: string) => void,
  ) {}

  /** Every entry in file order; an absent file has none. */
  async entries(): Promise<Map<string, string>> {
    return this.parse(await this.lines());
  }

  /**
   * Reads the file at once and tells `onValue` every entry (start-up); a missing or unreadable file tells nothing,
   * and one that is not a regular file (a fifo would stop start-up) is not waited on (main/core/regular-file.ts).
   */
  seeAll(): void {
    let text: string;
    try {
      text = readRegularFileSync(this.file, MAX_SECRETS_FILE_BYTES);
    } catch {
      return;
    }
    this.parse(splitLines(text));
  }

  private parse(lines: string[]): Map<string, string> {
    const entries = new Map<string, string>();
    for (const line of lines) {
      const entry = parseLine(line);
      if (!entry) continue;
      entries.set(entry.key, entry.value);
      this.onValue?.(entry.key, entry.value);
    }
    return entries;
  }

  /** The value for `key`, or undefined. */
  async get(key: string): Promise<string | undefined> {
    return (await this.entries()).get(key);
  }

  /** Writes `key=value`, replacing the key's old line(s). */
  async set(key: string, value: string): Promise<void> {
    // One line per entry: a value with a line break could not be read back as written.
    if (/[\r\n]/.test(value))
      throw new SecretStoreError(`the value for ${key} has a line break, which the secrets file cannot hold`);
    const lines = await this.lines();
    const kept = lines.filter((line) => parseLine(line)?.key !== key);
    kept.push(`${key}=${value}`);
    await this.write(kept);
  }

  /** Removes `key`; true when it was there. */
  async delete(key: string): Promise<boolean> {
    const lines = await this.lines();
    const kept = lines.filter((line) => parseLine(line)?.key !== key);
    if (kept.length === lines.length) return false;
    await this.write(kept);
    return true;
  }

  private async lines(): Promise<string[]> {
    let text: string;
    try {
      text = await readRegularFile(this.file, MAX_SECRETS_FILE_BYTES);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return splitLines(text);
  }

  // Temp file in the same directory + rename: a reader sees the old file or the new one, never half of one,
  // and the new file is created 0600 (whatever the old one's mode was) before a value is in it.
  private async write(lines: string[]): Promise<void> {
    await writeFileAtomic(this.file, lines.length > 0 ? lines.join('\n') + '\n' : '', {
      mode: SECRETS_FILE_MODE,
      dirMode: 0o700,
    });
  }
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** One `KEY=value` line (an optional `export ` prefix is allowed); null for blanks, comments and junk. */
export function parseLine(line: string): { key: string; value: string } | null {
  const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
  if (!match?.[1] || match[2] === undefined) return null;
  return { key: match[1], value: match[2] };
}
