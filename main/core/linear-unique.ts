// `uniqueItems` checked in linear time (docs/security.md, "A hostile MCP server"). Ajv compares every pair of items
// whose type it cannot hash (objects, arrays, mixed types) with a deep equal: 20,000 one-element arrays took 2 s of
// the main thread and the 1 MiB an argument may be many minutes, before anyone was asked; an MCP server's own
// structured content triggers it too. Here each item is written as canonical JSON (keys sorted), which is equal for
// two items exactly when Ajv's deep equal finds them equal, and the texts are kept in a set.
import type { Ajv, ErrorObject } from 'ajv';

interface UniqueCheck {
  (schema: boolean, data: unknown[]): boolean;
  errors?: Partial<ErrorObject>[];
}

const check: UniqueCheck = (schema, data) => {
  check.errors = [];
  if (!schema || data.length < 2) return true;
  const seen = new Map<string, number>();
  for (let j = 0; j < data.length; j++) {
    const key = canonical(data[j]);
    const i = seen.get(key);
    if (i !== undefined) {
      check.errors = [
        {
          keyword: 'uniqueItems',
          params: { i, j },
          message: `must NOT have duplicate items (items ## ${i} and ${j} are identical)`,
        },
      ];
      return false;
    }
    seen.set(key, j);
  }
  return true;
};

/** Replaces Ajv's `uniqueItems` with the linear check above. */
export function useLinearUniqueItems(ajv: Pick<Ajv, 'removeKeyword' | 'addKeyword'>): void {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: check,
  });
}

// JSON with object keys sorted; numbers as JSON writes them (so 1 and 1.0 are one item, as for Ajv).
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
