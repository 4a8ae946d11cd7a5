// How a streamed chunk that fails its zod schema is reported: the field, and what was expected there.
import type { z } from 'zod';

/** `at "choices[0].delta.content": expected string, received number`; no value of the chunk is repeated. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not fit the expected shape';
  const { path, message } = innermost(issue, []);
  const field = fieldPath(path);
  return field === '' ? message : `at "${field}": ${message}`;
}

/** The issue to name: for a union (a field that may take several shapes), the branch that got furthest. */
function innermost(issue: z.core.$ZodIssue, prefix: PropertyKey[]): { path: PropertyKey[]; message: string } {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const firsts = issue.errors.flatMap((branch) => branch.slice(0, 1));
    const deepest = firsts.reduce((a, b) => (b.path.length > a.path.length ? b : a), firsts[0]!);
    if (deepest.path.length > 0) return innermost(deepest, path);
    // Every branch failed on the field itself: name the shapes it may take.
    const expected = firsts.flatMap((branch) => (branch.code === 'invalid_type' ? [branch.expected] : []));
    if (expected.length === firsts.length) return { path, message: `expected ${expected.join(' or ')}` };
  }
  return { path, message: issue.message.replace(/^Invalid input(: |$)/, '') || 'unexpected shape' };
}

/** A zod issue path as code writes it: `choices[0].delta.content`. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** An SSE event name for a message: quoted and cut short (it comes from the server). */
export function eventName(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
}
