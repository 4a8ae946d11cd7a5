// One editable row of the price table: the model id, four prices per million tokens, and its Remove button.
import type { PriceRowInput } from './settings-input';

type PriceField = Exclude<keyof PriceRowInput, 'key'>;

/** The columns after the model: each a price in US dollars per million tokens. */
export const PRICE_COLUMNS: Array<{ field: Exclude<PriceField, 'model'>; label: string; optional: boolean }> =
  [
    { field: 'input', label: 'Input', optional: false },
    { field: 'output', label: 'Output', optional: false },
    { field: 'cacheRead', label: 'Cache read', optional: true },
    { field: 'cacheWrite', label: 'Cache write', optional: true },
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
  const edit = (field: PriceField, value: string) => onChange({ ...row, [field]: value });
  return (
    <tr>
      <td>
        <input
          aria-label={`Model, row ${number}`}
          value={row.model}
          onChange={(e) => edit('model', e.target.value)}
          spellCheck={false}
          placeholder="model id, e.g. gpt-4o*"
        />
      </td>
      {PRICE_COLUMNS.map(({ field, label, optional }) => (
        <td key={field}>
          <input
            aria-label={`${label}, row ${number}`}
            value={row[field]}
            onChange={(e) => edit(field, e.target.value)}
            inputMode="decimal"
            size={8}
            placeholder={optional ? 'as input' : ''}
          />
        </td>
      ))}
      <td>
        <button type="button" className="link-button" onClick={onRemove} aria-label={`Remove row ${number}`}>
          Remove
        </button>
      </td>
    </tr>
  );
}
