// Deterministic JSON (sorted keys) and hashing, for definition hashes and canonical arguments.
import { createHash } from 'node:crypto';

/**
 * JSON.stringify with object keys sorted at every depth. Iterative, so a schema or argument nested thousands of
 * levels deep cannot overflow the stack; a structure that contains itself throws a TypeError, as JSON.stringify does.
 */
export function stableStringify(value: unknown): string {
  return encode(value) ?? 'null';
}

/** Short sha256 hex of a string. */
export function shortHash(text: string, length = 16): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

// One open container on the explicit stack: its pending entries and whether one was written yet.
interface Frame {
  container: object;
  array: boolean;
  keys: string[];
  next: number;
  wrote: boolean;
}

// The text of a leaf; undefined for what JSON leaves out (undefined, functions, symbols).
function leaf(value: unknown): string | undefined {
  if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
  if (typeof value === 'number') return Number.isFinite(value) ? String(JSON.stringify(value)) : 'null';
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  return undefined;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

// Own enumerable keys in the order the former recursive version emitted them: it copied keys in sorted order into
// a fresh object, whose enumeration puts integer-like keys first in numeric order (kept so saved hashes still match).
function orderedKeys(object: object): string[] {
  const sorted = Object.keys(object).sort();
  const integers: string[] = [];
  const others: string[] = [];
  for (const key of sorted) (isArrayIndex(key) ? integers : others).push(key);
  integers.sort((a, b) => Number(a) - Number(b));
  return [...integers, ...others];
}

function isArrayIndex(key: string): boolean {
  if (key === '' || key.length > 10 || (key.length > 1 && key.startsWith('0'))) return false;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return Number(key) < 4294967295;
}

function open(container: object, parts: string[], path: Set<object>): Frame {
  if (path.has(container)) throw new TypeError('Converting circular structure to JSON');
  path.add(container);
  const array = Array.isArray(container);
  parts.push(array ? '[' : '{');
  return { container, array, keys: array ? [] : orderedKeys(container), next: 0, wrote: false };
}

function encode(root: unknown): string | undefined {
  if (!isContainer(root)) return leaf(root);
  const parts: string[] = [];
  const path = new Set<object>();
  const stack: Frame[] = [open(root, parts, path)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const length = frame.array ? (frame.container as unknown[]).length : frame.keys.length;
    if (frame.next >= length) {
      parts.push(frame.array ? ']' : '}');
      path.delete(frame.container);
      stack.pop();
      continue;
    }
    const index = frame.next++;
    const key = frame.array ? '' : (frame.keys[index] as string);
    const value = frame.array
      ? (frame.container as unknown[])[index]
      : (frame.container as Record<string, unknown>)[key];
    if (!frame.array && !isContainer(value) && leaf(value) === undefined) continue;
    if (frame.wrote) parts.push(',');
    frame.wrote = true;
    if (!frame.array) parts.push(`${JSON.stringify(key)}:`);
    if (isContainer(value)) stack.push(open(value, parts, path));
    else parts.push(leaf(value) ?? 'null');
  }
  return parts.join('');
}
