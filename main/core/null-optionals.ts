// An optional argument sent as null is treated as absent (docs/robustness.md): models often write `"x": null` for
// "not given". Dropped before validation wherever the schema says the property is optional and does not allow null,
// at every object depth the schema describes, so the handler then applies its default.
import { MAX_SCHEMA_DEPTH } from './schema-bounds';
import { isRecord } from '../../tools/sdk/values';

/** `args` without the nulls of optional properties whose schema does not allow null; unchanged objects are reused. */
export function dropNullOptionals(schema: unknown, args: Record<string, unknown>): Record<string, unknown> {
  return dropIn(schema, args, 0) as Record<string, unknown>;
}

function dropIn(schema: unknown, value: unknown, depth: number): unknown {
  // Schemas are bounded when they register, but built-ins are not checked; the arguments may nest deeper still.
  if (depth >= MAX_SCHEMA_DEPTH || !isRecord(schema)) return value;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!isRecord(items)) return value;
    let copy: unknown[] | null = null;
    value.forEach((item, i) => {
      const next = dropIn(items, item, depth + 1);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    return copy ?? value;
  }
  if (!isRecord(value) || !isRecord(schema.properties)) return value;
  const properties = schema.properties;
  const required: unknown[] = Array.isArray(schema.required) ? schema.required : [];
  let copy: Record<string, unknown> | null = null;
  // for…in with hasOwn, not Object.entries: no array of pairs for every call's arguments.
  for (const key in value) {
    if (!Object.hasOwn(value, key) || !Object.hasOwn(properties, key)) continue;
    const item = value[key];
    const property = properties[key];
    if (item === null) {
      if (!required.includes(key) && allowsNull(property) === false) {
        copy ??= { ...value };
        delete copy[key];
      }
      continue;
    }
    const next = dropIn(property, item, depth + 1);
    if (next !== item) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
}

/** Whether a schema accepts null: false only when it surely does not (a `type`, `enum` or `const` without null). */
export function allowsNull(schema: unknown, depth = 0): boolean {
  if (schema === false) return false;
  if (!isRecord(schema) || depth >= MAX_SCHEMA_DEPTH) return true;
  if (schema.nullable === true) return true;
  const { type } = schema;
  if (typeof type === 'string' && type !== 'null') return false;
  if (Array.isArray(type) && !type.includes('null')) return false;
  if (Object.hasOwn(schema, 'const') && schema.const !== null) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0 && branches.every((b) => !allowsNull(b, depth + 1)))
      return false;
  }
  const all = schema.allOf;
  if (Array.isArray(all) && all.some((b) => !allowsNull(b, depth + 1))) return false;
  return true;
}
