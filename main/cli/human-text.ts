// Durations and call outcomes as a person reads them on a terminal: `30 min`, `1 h 30 min`, `denied: …` said once.
import type { CallOutcome, OutcomeKind } from '../core/outcome';
import { isRecord } from '../../tools/sdk/values';

/** A duration in words: `850 ms`, `45 s`, `1.5 s`, `30 min`, `4 min 5 s`, `1 h 30 min`; zero parts are left out. */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'no limit';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  const seconds = Math.round(ms / 1000);
  const parts = [
    [Math.floor(seconds / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'min'],
    [seconds % 60, 's'],
  ] as const;
  return parts
    .filter(([count]) => count > 0)
    .map(([count, unit]) => `${count} ${unit}`)
    .join(' ');
}

/**
 * An outcome's kind and message in one line, the kind said once: a message that already starts with it
 * (`denied: …`, `timed out after 5 s`) is printed as it is, an error keeps its code: `error [code]: …`.
 */
export function outcomeLine(kind: Exclude<OutcomeKind, 'ok'>, message: string, code?: string): string {
  if (code !== undefined) return `${kind} [${code}]: ${message}`;
  return message.toLowerCase().startsWith(kind.replace('_', ' ')) ? message : `${kind}: ${message}`;
}

/**
 * Whether a call failed, for an exit status: any outcome but ok, and an ok whose command exited non-zero or was
 * killed (run_command answers those as a result the model reads, with `exitCode` and `signal` in its data).
 */
export function callFailed(outcome: CallOutcome): boolean {
  if (outcome.outcome !== 'ok') return true;
  const data: unknown = outcome.data;
  if (!isRecord(data) || !('exitCode' in data)) return false;
  if (typeof data.exitCode === 'number') return data.exitCode !== 0;
  return data.exitCode === null && typeof data.signal === 'string';
}

// C0 and C1 controls but the line break and the tab: ESC starts the sequences that hide, recolour, move or retitle.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text a model, a tool or a server wrote, safe to print on a terminal: control characters become escapes
 * (`\u{001b}`), so nothing printed before the approval prompt can conceal, recolour or scroll it away
 * (main/cli/terminal-output-attack.test.ts). Line breaks and tabs stay.
 */
export function terminalText(text: string): string {
  return text.replace(CONTROL, (char) => `\\u{${char.codePointAt(0)?.toString(16).padStart(4, '0')}}`);
}
