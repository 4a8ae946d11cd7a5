// What the provider, the store, the settings and the hosts share about a model call (docs/agent-loop.md, "Usage and
// cost", "Reasoning"): a round's token counts and the reasoning levels. Defined once here, the lowest layer.

/**
 * Tokens of one response as the server reported them; null where it reported nothing (unknown is not 0).
 * `inputTokens` is the input not read from the cache; cache reads and writes are counted apart.
 */
export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
}

/** A usage with every figure unknown. */
export function unknownUsage(): TokenUsage {
  return { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null };
}

/** A count as a server sent it, kept only when it is a whole, non-negative, safe number; anything else is unknown. */
export function tokenCount(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** How much the model reasons. */
export const REASONING_LEVELS = ['off', 'low', 'medium', 'high'] as const;

/** A reasoning level. */
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];

/** A chat's reasoning: the settings' level ('default'), or its own. */
export const CHAT_REASONING = ['default', ...REASONING_LEVELS] as const;

/** A chat's reasoning level. */
export type ChatReasoning = (typeof CHAT_REASONING)[number];
