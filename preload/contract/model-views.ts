// The IPC contract, part: how much the model reasons, what each round used and cost, and the price table
// (docs/agent-loop.md, "Reasoning", "Usage and cost"). Types only; preload/contract.ts re-exports every part.

/** How much the model reasons before answering: off, or a level (Anthropic: a thinking budget; OpenAI-compatible: reasoning_effort). */
export type ReasoningLevel = 'off' | 'low' | 'medium' | 'high';

/** A chat's reasoning: the settings' level, or its own. */
export type ChatReasoning = 'default' | ReasoningLevel;

/**
 * Tokens of one model round, as the server reported them; null where it reported nothing (unknown is not 0).
 * `inputTokens` is the input not read from the cache.
 */
export interface TokenUsageView {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
}

/** One round's usage: the model asked, its tokens, and the cost from the price table (null: no price known). */
export interface RoundUsageView {
  model: string;
  usage: TokenUsageView;
  /** US dollars; null when the model has no price in the table or the input or output count is unknown. */
  costUsd: number | null;
}

/** One row of the price table, in US dollars per million tokens. */
export interface ModelPriceView {
  /** The model id exactly as requested (a trailing `*` matches any suffix, e.g. `claude-sonnet-4-5*`). */
  model: string;
  input: number;
  output: number;
  /** null: cache reads cost what input costs. */
  cacheRead: number | null;
  /** null: cache writes cost what input costs. */
  cacheWrite: number | null;
}
