// settings.json as the core reads it on every call (the `limits` and `web` blocks), with its parser (zod) loaded only
// when there is something to parse (docs/hosts.md, "Fast start"): the dispatcher awaits `beforeCalls` before it
// prepares calls, which loads the parser once settings.json exists; until then the file's absence means the defaults.
import fs from 'node:fs';
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import { DEFAULT_TOOL_ARGUMENTS_BYTES } from '../core/argument-size';
import type { readLimits } from './limits';
import type { readWebSettings } from './web-settings-file';

interface Readers {
  limits: typeof readLimits;
  web: typeof readWebSettings;
}

/** Reads the blocks of settings.json the core needs per call. */
export class CoreSettings {
  private readers: Readers | null = null;
  private loading: Promise<void> | null = null;

  constructor(readonly file: string) {}

  /** Loads the parser once settings.json exists (a stat per call until then). */
  async beforeCalls(): Promise<void> {
    if (!this.readers && fs.existsSync(this.file)) await this.load();
  }

  /** Loads the parser (once). */
  load(): Promise<void> {
    this.loading ??= Promise.all([import('./limits'), import('./web-settings-file')]).then(
      ([limits, web]) => {
        this.readers = { limits: limits.readLimits, web: web.readWebSettings };
      },
    );
    return this.loading;
  }

  /** `limits.toolArgumentsBytes`, read now (before the parser loads, there was no file: the default). */
  argumentLimitBytes(): number {
    return this.readers
      ? this.readers.limits(this.file).limits.toolArgumentsBytes
      : DEFAULT_TOOL_ARGUMENTS_BYTES;
  }

  /** The `web` block, read now (before the parser loads, there was no file: the defaults, nothing private allowed). */
  web(): WebSettings {
    return this.readers ? this.readers.web(this.file) : {};
  }
}
