// settings.json as the core reads it on every call (the `limits` and `web` blocks), with its parser (zod) loaded only
// when there is something to parse (docs/hosts.md, "Fast start"): the dispatcher awaits `beforeCalls` before it
// prepares calls, which loads the parser once settings.json exists; until then the file's absence means the defaults.
// The file is looked at once per batch of calls, in `beforeCalls`: a stat, and a read and a parse only when the file's
// identity, size or times changed, or it changed in the last moments (its times may not yet tell two writes apart).
// A batch that begins within RECHECK_MS of the last look reuses it (a burst of calls pays one stat, not one each),
// unless this process saved settings.json since. What the calls of the batch read (`argumentLimitBytes`, `web`) is
// that reading.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import { DEFAULT_TOOL_ARGUMENTS_BYTES } from '../core/argument-size';
import { fileStamp } from '../core/file-stamp';
import type { readSettings, SettingsReading } from './settings-file';
import { settingsWriteCount } from './settings-writes';

/**
 * How long one look at settings.json serves the batches that follow it. An edit by hand or by another process applies
 * from the first batch that begins this long after it: as if it had landed just after that batch began. A stat here
 * costs 4-10 µs, most of what a call adds to an MCP round trip of ~100 µs (docs/hosts.md, "Fast start").
 */
export const RECHECK_MS = 20;

interface Readers {
  read: typeof readSettings;
}

/** Reads the blocks of settings.json the core needs per call. */
export class CoreSettings {
  private readers: Readers | null = null;
  private loading: Promise<void> | null = null;
  private kept: { key: string | null; reading: SettingsReading } | null = null;
  // When the last look at the file was (performance.now()), and how many saves this process had made by then.
  private lookedAt = -Infinity;
  private writesSeen = -1;

  constructor(
    readonly file: string,
    private readonly recheckMs: number = RECHECK_MS,
  ) {}

  /**
   * Loads the parser once settings.json exists (a look per batch until then), then looks at the file for the batch,
   * unless a look within the last `recheckMs` found it settled and this process has not saved it since. Returns a
   * promise only while the parser loads: the dispatcher awaits nothing on the common path (docs/dispatch.md).
   */
  beforeCalls(): Promise<void> | undefined {
    if (this.lookedRecently()) return undefined;
    if (!this.readers) {
      this.noteLook();
      if (!fs.existsSync(this.file)) return undefined;
      return this.load().then(() => void this.refresh());
    }
    this.refresh();
    return undefined;
  }

  // Whether the last look still serves: made within `recheckMs`, no save by this process since, and what it found
  // settled: no file (and so no parser loading), or a file with a stamp; a file changed in the last moments is looked
  // at by every batch.
  private lookedRecently(): boolean {
    const settled = this.readers ? this.kept !== null && this.kept.key !== null : this.loading === null;
    return (
      settled &&
      this.writesSeen === settingsWriteCount() &&
      performance.now() - this.lookedAt < this.recheckMs
    );
  }

  private noteLook(): void {
    this.lookedAt = performance.now();
    this.writesSeen = settingsWriteCount();
  }

  /** Loads the parser (once). */
  load(): Promise<void> {
    this.loading ??= import('./settings-file').then((file) => {
      this.readers = { read: file.readSettings };
    });
    return this.loading;
  }

  /** `limits.toolArgumentsBytes`, read now (before the parser loads, there was no file: the default). */
  argumentLimitBytes(): number {
    const reading = this.reading();
    // Read straight from the reading: this runs for every call.
    return reading && this.readers ? reading.limits.toolArgumentsBytes : DEFAULT_TOOL_ARGUMENTS_BYTES;
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
    this.noteLook();
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
