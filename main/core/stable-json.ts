// Deterministic JSON (sorted keys) and hashing, for definition hashes and canonical arguments.
import { createHash } from 'node:crypto';

/** JSON.stringify with object keys sorted at every depth. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** Short sha256 hex of a string. */
export function shortHash(text: string, length = 16): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}
