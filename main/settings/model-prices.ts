// The price table (docs/agent-loop.md, "Usage and cost"): US dollars per million tokens, the shipped defaults for
// common models until the person saves a table of their own (settings.json `prices`), which then is the table. A round's cost is its tokens times the prices of
// the model it asked; unknown when the model has no row or the server did not say how many tokens went in or out.

import type { TokenUsage } from '../core/model-usage';

/** One row: a model id (a trailing `*` matches any suffix) and its prices per million tokens. */
export interface ModelPrice {
  model: string;
  input: number;
  output: number;
  /** null: cache reads cost what input costs. */
  cacheRead: number | null;
  /** null: cache writes cost what input costs. */
  cacheWrite: number | null;
}

const row = (model: string, input: number, output: number, cacheRead: number, cacheWrite: number | null) => ({
  model,
  input,
  output,
  cacheRead,
  cacheWrite,
});

/**
 * Shipped defaults, from the providers' published list prices (checked 2026-11), one row per model id; a dated
 * snapshot (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`) and OpenRouter's dotted form (`claude-sonnet-4.5`)
 * find the same row (priceFor). Anthropic: cache reads 0.1×, writes (5-minute cache) 1.25× input. OpenAI: cached input
 * as listed, no write charge. DeepSeek: cache hits as listed. Prices change: the person edits the table in Settings.
 */
export const DEFAULT_PRICES: readonly ModelPrice[] = [
  row('claude-opus-4-5', 5, 25, 0.5, 6.25),
  row('claude-opus-4-1', 15, 75, 1.5, 18.75),
  row('claude-opus-4', 15, 75, 1.5, 18.75),
  row('claude-opus-4-0', 15, 75, 1.5, 18.75),
  row('claude-sonnet-4-5', 3, 15, 0.3, 3.75),
  row('claude-sonnet-4', 3, 15, 0.3, 3.75),
  row('claude-sonnet-4-0', 3, 15, 0.3, 3.75),
  row('claude-3-7-sonnet', 3, 15, 0.3, 3.75),
  row('claude-3-7-sonnet-latest', 3, 15, 0.3, 3.75),
  row('claude-haiku-4-5', 1, 5, 0.1, 1.25),
  row('claude-3-5-haiku', 0.8, 4, 0.08, 1),
  row('claude-3-5-haiku-latest', 0.8, 4, 0.08, 1),
  row('gpt-5', 1.25, 10, 0.125, 0),
  row('gpt-5-mini', 0.25, 2, 0.025, 0),
  row('gpt-5-nano', 0.05, 0.4, 0.005, 0),
  row('gpt-4.1', 2, 8, 0.5, 0),
  row('gpt-4.1-mini', 0.4, 1.6, 0.1, 0),
  row('gpt-4.1-nano', 0.1, 0.4, 0.025, 0),
  row('gpt-4o', 2.5, 10, 1.25, 0),
  row('gpt-4o-mini', 0.15, 0.6, 0.075, 0),
  row('o3', 2, 8, 0.5, 0),
  row('o4-mini', 1.1, 4.4, 0.275, 0),
  row('deepseek-chat', 0.28, 0.42, 0.028, 0),
  row('deepseek-reasoner', 0.28, 0.42, 0.028, 0),
];

/**
 * The table in use, sorted by model: the person's own (a row they removed stays removed, an empty table prices
 * nothing), or the shipped defaults when they never saved one (null).
 */
export function priceTable(saved: readonly ModelPrice[] | null): ModelPrice[] {
  return [...(saved ?? DEFAULT_PRICES)].sort((a, b) => a.model.localeCompare(b.model));
}

/**
 * The row for `model`: its exact id; else the id without a provider prefix (OpenRouter's `anthropic/…`), without a
 * dated snapshot's date (`-20250929`, `-2024-08-06`) and with dots in the version as dashes (`claude-sonnet-4.5`);
 * else the longest row ending in `*` whose start matches. Nothing is guessed beyond that: an unknown model has no cost.
 */
export function priceFor(table: readonly ModelPrice[], model: string): ModelPrice | null {
  const bare = model.slice(model.lastIndexOf('/') + 1);
  const undated = bare.replace(/-\d{4}-?\d{2}-?\d{2}$/, '');
  const dashed = undated.replace(/(\d)\.(\d)/g, '$1-$2');
  for (const id of new Set([model, bare, undated, dashed])) {
    const exact = table.find((price) => price.model === id);
    if (exact) return exact;
  }
  for (const id of new Set([model, bare])) {
    const prefix = table
      .filter((price) => price.model.endsWith('*') && id.startsWith(price.model.slice(0, -1)))
      .sort((a, b) => b.model.length - a.model.length)[0];
    if (prefix) return prefix;
  }
  return null;
}

/** A round's cost in US dollars; null when there is no price or the input or output count is unknown. */
export function costOf(price: ModelPrice | null, usage: TokenUsage): number | null {
  if (!price || usage.inputTokens === null || usage.outputTokens === null) return null;
  // An unknown cache figure adds nothing: the server said nothing was read from or written to a cache.
  const dollars =
    usage.inputTokens * price.input +
    usage.outputTokens * price.output +
    (usage.cacheReadTokens ?? 0) * (price.cacheRead ?? price.input) +
    (usage.cacheWriteTokens ?? 0) * (price.cacheWrite ?? price.input);
  return dollars / 1_000_000;
}
