// settings.json as the core reads it on every call (the `limits` and `web` blocks), with its parser (zod) loaded only
// when there is something to parse (docs/hosts.md, "Fast start"): the dispatcher awaits `beforeCalls` before it
// prepares calls, which loads the parser once settings.json exists; until then the file's absence means the defaults.
// A reading is kept while the file's identity, size and times stay the same, so a call costs a stat, not a read and a
// parse; a file changed in the last moments is read again each time (its times may not yet tell two writes apart).
import fs from 'node:fs';
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import { DEFAULT_TOOL_ARGUMENTS_BYTES } from '../core/argument-size';
import type { limitsOf } from './limits';
import type { readSettings, SettingsReading } from './settings-file';

interface Readers {
  read: typeof readSettings;
  limitsOf: typeof limitsOf;
}

/**
 * A file modified less than this long ago is read again on every call: file times come from a clock that advances in
 * steps of a few milliseconds, so two writes of the same size inside one step look alike (git's "racily clean").
 */
export const SETTLE_MS = 100;

/** Reads the blocks of settings.json the core needs per call. */
export class CoreSettings {
  private readers: Readers | null = null;
  private loading: Promise<void> | null = null;
  private kept: { key: string; reading: SettingsReading } | null = null;

  constructor(readonly file: string) {}

  /** Loads the parser once settings.json exists (a stat per call until then). */
  async beforeCalls(): Promise<void> {
    if (!this.readers && fs.existsSync(this.file)) await this.load();
  }

  /** Loads the parser (once). */
  load(): Promise<void> {
    this.loading ??= Promise.all([import('./settings-file'), import('./limits')]).then(([file, limits]) => {
      this.readers = { read: file.readSettings, limitsOf: limits.limitsOf };
    });
    return this.loading;
  }

  /** `limits.toolArgumentsBytes`, read now (before the parser loads, there was no file: the default). */
  argumentLimitBytes(): number {
    const reading = this.reading();
    return reading && this.readers
      ? this.readers.limitsOf(reading).limits.toolArgumentsBytes
      : DEFAULT_TOOL_ARGUMENTS_BYTES;
  }

  /** The `web` block, read now (before the parser loads, there was no file: the defaults, nothing private allowed). */
  web(): WebSettings {
    return this.reading()?.web ?? {};
  }

  // The file as it is now: the kept reading while the file is unchanged, else a fresh one.
  private reading(): SettingsReading | null {
    const readers = this.readers;
    if (!readers) return null;
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(this.file, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    const key = stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}` : 'absent';
    if (this.kept?.key === key) return this.kept.reading;
    const reading = readers.read(this.file);
    const settled = !stat || Date.now() - Math.max(stat.mtimeMs, stat.ctimeMs) > SETTLE_MS;
    this.kept = settled ? { key, reading } : null;
    return reading;
  }
}
