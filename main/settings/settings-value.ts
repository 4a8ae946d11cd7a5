// How a bad settings value is quoted in an error: short and safe for any shape (a 10 MB string, 100,000 levels of
// nesting), so the message names the field without repeating, or choking on, what was in it.

const MAX_PREVIEW = 60;

/** A short description of `value` for "(got …)": short JSON scalars as they are, long strings cut, containers by kind. */
export function previewValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case 'string':
      return value.length > MAX_PREVIEW
        ? `${JSON.stringify(value.slice(0, MAX_PREVIEW))}… (${value.length} characters)`
        : JSON.stringify(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
