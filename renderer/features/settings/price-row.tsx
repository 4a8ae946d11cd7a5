// One editable row of the price table: the model id, four prices per million tokens, and its Remove button.
import { useTranslation } from '../../i18n/i18n';
import type { PriceRowInput } from './settings-input';

type PriceField = Exclude<keyof PriceRowInput, 'key'>;

type ColumnLabel = 'settings.input' | 'settings.output' | 'settings.cacheRead' | 'settings.cacheWrite';

/** The columns after the model: each a price in US dollars per million tokens (label: its catalogue key). */
export const PRICE_COLUMNS: Array<{
  field: Exclude<PriceField, 'model'>;
  label: ColumnLabel;
  optional: boolean;
}> = [
  { field: 'input', label: 'settings.input', optional: false },
  { field: 'output', label: 'settings.output', optional: false },
  { field: 'cacheRead', label: 'settings.cacheRead', optional: true },
  { field: 'cacheWrite', label: 'settings.cacheWrite', optional: true },
];

interface PriceRowProps {
  row: PriceRowInput;
  /** 1-based, for the fields' names ("Input, row 2"). */
  number: number;
  onChange: (row: PriceRowInput) => void;
  onRemove: () => void;
}

/** A table row whose cells are text fields, each named by its column and row. */
export function PriceRow({ row, number, onChange, onRemove }: PriceRowProps) {
  const { t } = useTranslation();
  const edit = (field: PriceField, value: string) => onChange({ ...row, [field]: value });
  return (
    <tr>
      <td>
        <input
          aria-label={t('settings.priceModel', { row: number })}
          value={row.model}
          onChange={(e) => edit('model', e.target.value)}
          spellCheck={false}
          placeholder={t('settings.priceModelPlaceholder')}
        />
      </td>
      {PRICE_COLUMNS.map(({ field, label, optional }) => (
        <td key={field}>
          <input
            aria-label={t('settings.priceCell', { column: t(label), row: number })}
            value={row[field]}
            onChange={(e) => edit(field, e.target.value)}
            inputMode="decimal"
            size={8}
            placeholder={optional ? t('settings.asInput') : ''}
          />
        </td>
      ))}
      <td>
        <button
          type="button"
          className="link-button"
          onClick={onRemove}
          aria-label={t('settings.removeRow', { row: number })}
        >
          {t('settings.remove')}
        </button>
      </td>
    </tr>
  );
}
