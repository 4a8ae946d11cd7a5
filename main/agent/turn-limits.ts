// The settings' `limits` (main/settings/limits.ts) as the bounds a provider applies to each response.
import type { RuntimeLimits } from '../settings/limits';
import type { StreamLimits } from './providers/stream-limits';

/** Converts settings limits into a provider's stream limits. */
export function streamLimits(limits: RuntimeLimits): StreamLimits {
  return {
    eventBytes: limits.providerEventBytes,
    firstByteMs: Math.round(limits.providerFirstByteSeconds * 1000),
    idleMs: Math.round(limits.providerIdleSeconds * 1000),
    toolCallBytes: limits.toolArgumentsBytes,
  };
}
