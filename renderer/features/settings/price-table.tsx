// The settings screen's price table: what each model costs per million tokens, which turns token counts into the
// cost shown under each turn. Edited in place and saved whole.
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { ModelPriceView } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';
import { PRICE_COLUMNS, PriceRow } from './price-row';
import type { PriceRowInput } from './settings-input';
import { checkPrices, emptyPriceRow, priceRows } from './settings-input';

/** The prices part of the settings screen. */
export function PriceSection({ prices }: { prices: ModelPriceView[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="prices-heading">
      <h2 id="prices-heading">{t('settings.prices')}</h2>
      <p className="muted">{t('settings.pricesHint')}</p>
      <PriceForm key={JSON.stringify(prices)} prices={prices} />
    </section>
  );
}

function PriceForm({ prices }: { prices: ModelPriceView[] }) {
  const { t } = useTranslation();
  const save = useAppStore((s) => s.saveSettings);
  const saving = useAppStore((s) => s.settingsSaving);
  const [rows, setRows] = useState(() => priceRows(prices));
  const [errors, setErrors] = useState<string[]>([]);
  const edit = (next: PriceRowInput[]) => {
    setRows(next);
    setErrors([]);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkPrices(rows);
    if (!checked.ok) return setErrors(checked.errors);
    const refused = await save({ prices: checked.value });
    setErrors(refused ? [refused] : []);
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <table className="tools-table price-table" aria-label={t('settings.pricesTable')}>
        <thead>
          <tr>
            <th scope="col">{t('settings.model')}</th>
            {PRICE_COLUMNS.map((c) => (
              <th key={c.field} scope="col">
                {t(c.label)}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">{t('settings.remove')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <PriceRow
              key={row.key}
              row={row}
              number={i + 1}
              onChange={(changed) => edit(rows.map((r) => (r.key === row.key ? changed : r)))}
              onRemove={() => edit(rows.filter((r) => r.key !== row.key))}
            />
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p className="muted">{t('settings.noPrices')}</p>}
      {errors.length > 0 && (
        <ul className="dialog-error" role="alert" aria-label={t('settings.pricesNotSaved')}>
          {errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      )}
      <div className="price-actions">
        <button type="button" onClick={() => edit([...rows, emptyPriceRow()])}>
          {t('settings.addModel')}
        </button>
        <button type="submit" className="primary" disabled={saving}>
          {t('settings.savePrices')}
        </button>
      </div>
    </form>
  );
}
