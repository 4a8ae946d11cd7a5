// The `limits` block of settings.json (docs/robustness.md): bounds on what the model may send us. A bad value never
// stops the app: it is named in a warning and its default applies. The block's schema is in settings-schema.ts.
//
//   "limits": {
//     "toolArgumentsBytes": 1048576,      // one tool call's arguments (JSON text); past it the call is refused
//     "providerEventBytes": 8388608,      // one server-sent event of the model's stream; past it the round fails
//     "providerFirstByteSeconds": 300,    // from the request to the first byte of an event
//     "providerIdleSeconds": 300          // between bytes of events once the answer has started
//   }
import type { SettingsReading } from './settings-file';
import { parseSettings, readSettings } from './settings-file';
import type { RuntimeLimits } from './settings-schema';

export type { RuntimeLimits } from './settings-schema';
export { DEFAULT_LIMITS } from './settings-schema';

/** Limits and what was wrong with the block that set them. */
export interface LimitsReading {
  limits: RuntimeLimits;
  /** One line per ignored value, naming the file and the field. */
  warnings: string[];
}

/** Checks a `limits` value; anything unusable is reported and replaced by its default, never thrown. */
export function parseLimits(raw: unknown, where: string): LimitsReading {
  return limitsOf(parseSettings({ limits: raw }, where));
}

/** Reads settings.json's `limits`; a missing or broken file means the defaults (loadSettings reports a broken file). */
export function readLimits(settingsFile: string): LimitsReading {
  return limitsOf(readSettings(settingsFile));
}

/** The limits of a reading of settings.json, with their warnings. */
export function limitsOf(reading: SettingsReading): LimitsReading {
  return {
    limits: reading.limits,
    warnings: reading.warnings
      .filter((warning) => warning.section === 'limits')
      .map((warning) => warning.text),
  };
}
