// settings.json as the core reads it on every call (the `limits` and `web` blocks), with its parser (zod) loaded only
// when there is something to parse (docs/hosts.md, "Fast start"): the dispatcher awaits `beforeCalls` before it
// prepares calls, which loads the parser once settings.json exists; until then the file's absence means the defaults.
// The file is looked at once per batch of calls, in `beforeCalls`: a stat, and a read and a parse only when the file's
// identity, size or times changed, or it changed in the last moments (its times may not yet tell two writes apart).
// What the calls of the batch read (`argumentLimitBytes`, `web`) is that reading.
import fs from 'node:fs';
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import { DEFAULT_TOOL_ARGUMENTS_BYTES } from '../core/argument-size';
import { fileStamp } from '../core/file-stamp';
import type { limitsOf } from './limits';
import type { readSettings, SettingsReading } from './settings-file';

interface Readers {
  read: typeof readSettings;
  limitsOf: typeof limitsOf;
}

/** Reads the blocks of settings.json the core needs per call. */
export class CoreSettings {
  private readers: Readers | null = null;
  private loading: Promise<void> | null = null;
  private kept: { key: string | null; reading: SettingsReading } | null = null;

  constructor(readonly file: string) {}

  /** Loads the parser once settings.json exists (a stat per batch until then), then looks at the file for the batch. */
  async beforeCalls(): Promise<void> {
    if (!this.readers && fs.existsSync(this.file)) await this.load();
    if (this.readers) this.refresh();
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

  /**
   * The `web` block as the file is now (a stat, and a read if it changed), for readers outside any batch: the sandbox's
   * proxy asks on every outbound connection of a command that may run long after its batch began.
   */
  webNow(): WebSettings {
    return (this.readers ? this.refresh() : null)?.web ?? {};
  }

  // The reading the last `beforeCalls` made (one now, if the parser loaded but no batch looked yet).
  private reading(): SettingsReading | null {
    if (!this.readers) return null;
    return this.kept?.reading ?? this.refresh();
  }

  // The file as it is now: the kept reading while the file is unchanged and settled, else a fresh one.
  private refresh(): SettingsReading | null {
    const readers = this.readers;
    if (!readers) return null;
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(this.file, { throwIfNoEntry: false });
    } catch {
      stat = undefined;
    }
    // An unsettled file (no stamp) is kept for this batch only: the next batch reads it again.
    const key = stat ? fileStamp(stat) : 'absent';
    if (key !== null && this.kept?.key === key) return this.kept.reading;
    const reading = readers.read(this.file);
    this.kept = { key, reading };
    return reading;
  }
}
