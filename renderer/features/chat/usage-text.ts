// Words for a usage total: one quiet line ("12,345 in · 40,100 cached · 1,200 out · $0.0213") and a note for what it
// leaves out (no price, counts the server did not report).
import { t } from '../../i18n/i18n';
import { numberFormat } from '../../shared/format/intl-format';
import type { CountField, UsageTotal } from './usage-sum';

// Counts in the UI's language; prices always in US dollars, as the price table is.
const cents = () => numberFormat({ style: 'currency', currency: 'USD' });
const fine = () =>
  numberFormat({ style: 'currency', currency: 'USD', minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** A token count, or "?" when it is unknown. */
export function formatCount(value: number | null): string {
  return value === null ? '?' : numberFormat().format(value);
}

/** US dollars: cents from a dollar up, four decimals below (a round often costs a fraction of a cent). */
export function formatUsd(value: number): string {
  if (value === 0 || value >= 1) return cents().format(value);
  if (value < 0.0001) return `< ${fine().format(0.0001)}`;
  return fine().format(value);
}

/** The line's text and its note (for the title): what the line leaves out, in words; '' when nothing. */
export function usageText(total: UsageTotal): { text: string; note: string } {
  // A count only some rounds reported is a lower bound.
  const figure = (field: CountField) =>
    `${total.partial.includes(field) ? '≥' : ''}${formatCount(total[field])}`;
  const segments = [t('usage.in', { n: figure('inputTokens') })];
  const unknownCache: string[] = [];
  if (total.cacheReadTokens === null) unknownCache.push(t('usage.cacheReads'));
  else if (total.cacheReadTokens > 0) segments.push(t('usage.cached', { n: figure('cacheReadTokens') }));
  if (total.cacheWriteTokens === null) unknownCache.push(t('usage.cacheWrites'));
  else if (total.cacheWriteTokens > 0)
    segments.push(t('usage.cacheWrite', { n: figure('cacheWriteTokens') }));
  segments.push(t('usage.out', { n: figure('outputTokens') }));
  if (total.costUsd !== null) segments.push(formatUsd(total.costUsd));
  if (total.unreported > 0) segments.push(t('usage.unreported', { count: total.unreported }));

  const notes: string[] = [];
  if (total.inputTokens === null || total.outputTokens === null) notes.push(t('usage.unknownCount'));
  if (total.partial.length > 0) notes.push(t('usage.partial'));
  if (unknownCache.length > 0) notes.push(t('usage.notReported', { what: unknownCache.join(t('usage.or')) }));
  if (total.unpriced.length > 0) notes.push(t('usage.noPrice', { models: total.unpriced.join(', ') }));
  if (total.costNeedsCounts) notes.push(t('usage.noCost'));
  if (total.unreported > 0) notes.push(t('usage.roundsMissing'));
  return { text: segments.join(' · '), note: notes.join(' ') };
}
