// What the person typed for the reasoning budget and the price table, checked before anything goes to main; every
// refusal is said in words that name the row and the field.
import type { ModelPriceView } from '../../../preload/contract';
import { t } from '../../i18n/i18n';
import { formatNumber } from '../../shared/format/intl-format';

/** The smallest thinking budget Anthropic takes. */
export const MIN_BUDGET = 1024;
/** Budgets must stay below this. */
export const BUDGET_LIMIT = 128_000;

/** A checked value, or why it was refused. */
export type Checked<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** The thinking budget field: empty is the level's own (null), else a whole number from 1,024 to 127,999. */
export function checkBudget(text: string): Checked<number | null> {
  const trimmed = text.trim().replace(/[,_\s]/g, '');
  if (trimmed === '') return { ok: true, value: null };
  if (!/^\d+$/.test(trimmed))
    return {
      ok: false,
      errors: [t('checks.budgetNotNumber')],
    };
  const value = Number(trimmed);
  if (value < MIN_BUDGET || value >= BUDGET_LIMIT)
    return {
      ok: false,
      errors: [t('checks.budgetRange', { min: formatNumber(MIN_BUDGET), max: formatNumber(BUDGET_LIMIT) })],
    };
  return { ok: true, value };
}

/** One row of the price table as typed: every field is text until it is checked. */
export interface PriceRowInput {
  /** Keys the row while it is edited (rows come and go). */
  key: number;
  model: string;
  input: string;
  output: string;
  cacheRead: string;
  cacheWrite: string;
}

let nextKey = 0;

/** The table's rows for editing. */
export function priceRows(prices: readonly ModelPriceView[]): PriceRowInput[] {
  return prices.map((p) => ({
    key: nextKey++,
    model: p.model,
    input: String(p.input),
    output: String(p.output),
    cacheRead: p.cacheRead === null ? '' : String(p.cacheRead),
    cacheWrite: p.cacheWrite === null ? '' : String(p.cacheWrite),
  }));
}

/** A new, empty row. */
export function emptyPriceRow(): PriceRowInput {
  return { key: nextKey++, model: '', input: '', output: '', cacheRead: '', cacheWrite: '' };
}

const NUMBER = /^(\d+(\.\d*)?|\.\d+)$/;

/** The edited table as main takes it, or every problem found in it. */
export function checkPrices(rows: readonly PriceRowInput[]): Checked<ModelPriceView[]> {
  const errors: string[] = [];
  const seen = new Map<string, number>();
  const prices: ModelPriceView[] = [];
  rows.forEach((row, index) => {
    const n = index + 1;
    const model = row.model.trim();
    const where = model ? t('checks.rowModel', { n, model }) : t('checks.row', { n });
    if (!model) errors.push(t('checks.noModel', { where }));
    else if (model.slice(0, -1).includes('*')) errors.push(t('checks.starAtEnd', { where }));
    else if (seen.has(model)) errors.push(t('checks.duplicate', { where, row: seen.get(model) }));
    else seen.set(model, n);
    const price = (
      key: 'input' | 'output' | 'cacheRead' | 'cacheWrite',
      text: string,
      required: boolean,
    ): number | null => {
      const trimmed = text.trim();
      const field = t(`checks.${key}`);
      if (trimmed === '') {
        if (required) errors.push(t('checks.missing', { where, field }));
        return null;
      }
      if (NUMBER.test(trimmed)) return Number(trimmed);
      errors.push(t('checks.notNumber', { where, field, text: trimmed }));
      return null;
    };
    const input = price('input', row.input, true);
    const output = price('output', row.output, true);
    const cacheRead = price('cacheRead', row.cacheRead, false);
    const cacheWrite = price('cacheWrite', row.cacheWrite, false);
    if (model && input !== null && output !== null)
      prices.push({ model, input, output, cacheRead, cacheWrite });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: prices };
}
