// Words for a usage total: one quiet line ("12,345 in · 40,100 cached · 1,200 out · $0.0213") and a note for what it
// leaves out (no price, counts the server did not report).
import type { CountField, UsageTotal } from './usage-sum';

const count = new Intl.NumberFormat('en-US');
const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const fine = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 4,
  maximumFractionDigits: 4,
});

/** A token count, or "?" when it is unknown. */
export function formatCount(value: number | null): string {
  return value === null ? '?' : count.format(value);
}

/** US dollars: cents from a dollar up, four decimals below (a round often costs a fraction of a cent). */
export function formatUsd(value: number): string {
  if (value === 0 || value >= 1) return cents.format(value);
  if (value < 0.0001) return `< ${fine.format(0.0001)}`;
  return fine.format(value);
}

/** The line's text and its note (for the title): what the line leaves out, in words; '' when nothing. */
export function usageText(total: UsageTotal): { text: string; note: string } {
  // A count only some rounds reported is a lower bound.
  const figure = (field: CountField) =>
    `${total.partial.includes(field) ? '≥' : ''}${formatCount(total[field])}`;
  const segments = [`${figure('inputTokens')} in`];
  const unknownCache: string[] = [];
  if (total.cacheReadTokens === null) unknownCache.push('cache reads');
  else if (total.cacheReadTokens > 0) segments.push(`${figure('cacheReadTokens')} cached`);
  if (total.cacheWriteTokens === null) unknownCache.push('cache writes');
  else if (total.cacheWriteTokens > 0) segments.push(`${figure('cacheWriteTokens')} cache write`);
  segments.push(`${figure('outputTokens')} out`);
  if (total.costUsd !== null) segments.push(formatUsd(total.costUsd));
  if (total.unreported > 0)
    segments.push(`${total.unreported} ${total.unreported === 1 ? 'round' : 'rounds'} not reported`);

  const notes: string[] = [];
  if (total.inputTokens === null || total.outputTokens === null)
    notes.push('? marks a count the server did not report.');
  if (total.partial.length > 0) notes.push('≥ marks a count only some rounds reported.');
  if (unknownCache.length > 0) notes.push(`The server did not report ${unknownCache.join(' or ')}.`);
  if (total.unpriced.length > 0) notes.push(`No price for ${total.unpriced.join(', ')}.`);
  if (total.costNeedsCounts) notes.push('No cost where the input or output count is unknown.');
  if (total.unreported > 0)
    notes.push(
      'A round that reported no usage (stopped early, or from before usage was kept) is in none of the counts.',
    );
  return { text: segments.join(' · '), note: notes.join(' ') };
}
