// The `limits` block of settings.json (docs/robustness.md): bounds on what the model may send us. A bad value never
// stops the app: it is named in a warning and its default applies.
//
//   "limits": {
//     "toolArgumentsBytes": 1048576,      // one tool call's arguments (JSON text); past it the call is refused
//     "providerEventBytes": 8388608,      // one server-sent event of the model's stream; past it the round fails
//     "providerFirstByteSeconds": 300,    // from the request to the first byte of the answer
//     "providerIdleSeconds": 300          // between two bytes of the answer once it has started
//   }
import fs from 'node:fs';
import { formatBytes } from '../core/argument-size';
import type { StreamLimits } from './providers/stream-limits';
import { DEFAULT_STREAM_LIMITS } from './providers/stream-limits';
import { previewValue } from './settings-value';

/** Every bound the `limits` block sets, resolved. */
export interface RuntimeLimits {
  toolArgumentsBytes: number;
  providerEventBytes: number;
  providerFirstByteSeconds: number;
  providerIdleSeconds: number;
}

/** The defaults: 1 MiB of arguments, 8 MiB per event, 300 s to the first byte and between bytes (local CPU models are slow to start). */
export const DEFAULT_LIMITS: Readonly<RuntimeLimits> = {
  toolArgumentsBytes: DEFAULT_STREAM_LIMITS.toolCallBytes,
  providerEventBytes: DEFAULT_STREAM_LIMITS.eventBytes,
  providerFirstByteSeconds: DEFAULT_STREAM_LIMITS.firstByteMs / 1000,
  providerIdleSeconds: DEFAULT_STREAM_LIMITS.idleMs / 1000,
};

/** Limits and what was wrong with the block that set them. */
export interface LimitsReading {
  limits: RuntimeLimits;
  /** One line per ignored value, naming the file and the field. */
  warnings: string[];
}

type Field = keyof RuntimeLimits;

// Byte sizes are whole numbers; times may be fractions of a second (tests use 0.2 s).
const RULES: Record<Field, { min: number; max: number; whole: boolean; unit: 'bytes' | 'seconds' }> = {
  toolArgumentsBytes: { min: 1024, max: 1024 ** 3, whole: true, unit: 'bytes' },
  providerEventBytes: { min: 1024, max: 1024 ** 3, whole: true, unit: 'bytes' },
  providerFirstByteSeconds: { min: 0.01, max: 86_400, whole: false, unit: 'seconds' },
  providerIdleSeconds: { min: 0.01, max: 86_400, whole: false, unit: 'seconds' },
};

/** Checks a `limits` value; anything unusable is reported and replaced by its default, never thrown. */
export function parseLimits(raw: unknown, where: string): LimitsReading {
  const limits: RuntimeLimits = { ...DEFAULT_LIMITS };
  const warnings: string[] = [];
  if (raw === undefined) return { limits, warnings };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    warnings.push(
      `${where}: "limits" must be an object (got ${previewValue(raw)}); the default limits apply`,
    );
    return { limits, warnings };
  }
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!(key in RULES)) {
      warnings.push(`${where}: unknown key "limits.${previewKey(key)}" is ignored`);
      continue;
    }
    const field = key as Field;
    const rule = RULES[field];
    const usable =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      value >= rule.min &&
      value <= rule.max &&
      (!rule.whole || Number.isInteger(value));
    if (usable) {
      limits[field] = value;
      continue;
    }
    const kind = rule.whole ? 'a whole number of bytes' : 'a number of seconds';
    warnings.push(
      `${where}: "limits.${field}" must be ${kind} from ${rule.min} to ${rule.max} (got ${previewValue(value)}); ` +
        `the default ${describeDefault(field)} applies`,
    );
  }
  return { limits, warnings };
}

/** Reads settings.json's `limits`; a missing or broken file means the defaults (loadSettings reports a broken file). */
export function readLimits(settingsFile: string): LimitsReading {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  } catch {
    return { limits: { ...DEFAULT_LIMITS }, warnings: [] };
  }
  const block = raw !== null && typeof raw === 'object' ? (raw as { limits?: unknown }).limits : undefined;
  return parseLimits(block, settingsFile);
}

/** Converts settings limits into a provider's stream limits. */
export function streamLimits(limits: RuntimeLimits): StreamLimits {
  return {
    eventBytes: limits.providerEventBytes,
    firstByteMs: Math.round(limits.providerFirstByteSeconds * 1000),
    idleMs: Math.round(limits.providerIdleSeconds * 1000),
    toolCallBytes: limits.toolArgumentsBytes,
  };
}

function describeDefault(field: Field): string {
  const value = DEFAULT_LIMITS[field];
  return RULES[field].unit === 'bytes' ? `${value} (${formatBytes(value, true)})` : `${value} s`;
}

function previewKey(key: string): string {
  return key.length > 60 ? `${key.slice(0, 60)}…` : key;
}
