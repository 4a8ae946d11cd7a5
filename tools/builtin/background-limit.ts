// The `timeout_min` parameter of the background tools: the task's own limit, 1 to 60 minutes (docs/dispatch.md, "Background tasks").
import type { JsonSchema } from '../sdk/types';

/** Default and largest task limit in minutes. */
export const MAX_TASK_MINUTES = 60;

/** The `timeout_min` parameter schema. */
export const TIMEOUT_MIN_PARAMETER: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_TASK_MINUTES,
  default: MAX_TASK_MINUTES,
  description: `Minutes the task may run before it is stopped, 1 to ${MAX_TASK_MINUTES}, e.g. 15.`,
};

/** The task limit in ms from a call's `timeout_min`, defaulted and clamped (the schema already checks it). */
export function taskLimitFromArgs(args: Record<string, unknown>): number {
  const raw = args.timeout_min;
  const minutes = typeof raw === 'number' && Number.isFinite(raw) ? Math.round(raw) : MAX_TASK_MINUTES;
  return Math.min(MAX_TASK_MINUTES, Math.max(1, minutes)) * 60_000;
}
