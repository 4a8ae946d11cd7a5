// Zod issues as the reasons of docs/robustness.md (bad input gets a clear error naming the file and the field):
// `"timeout" must be …`, the field being the path to the issue. A schema's own messages say what follows the field.
import type { z } from 'zod';

// Enough of a key to find it in the file; a runaway one is cut.
const KEY_SHOWN = 80;

/** Text from the file quoted in a reason, cut so a runaway value cannot flood it ("an array" for an array). */
export function shownValue(value: unknown, max = 40): string {
  if (typeof value === 'string') return JSON.stringify(cut(value, max));
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return cut(JSON.stringify(value) ?? String(value), max);
}

/**
 * The field an issue is about, as a reason names it ("parameters.properties.q"), or "" for the value as a whole.
 * Array positions are left out: an array is named, and a message about one of its items quotes the item.
 */
export function issueField(path: readonly PropertyKey[]): string {
  return path
    .filter((segment) => typeof segment !== 'number')
    .map((segment) => cut(String(segment), KEY_SHOWN))
    .join('.');
}

/** One issue as a reason: `"field" message`, or the message alone when it is about the value as a whole. */
export function issueReason(issue: z.core.$ZodIssue): string {
  const field = issueField(issue.path);
  return field === '' ? issue.message : `"${field}" ${issue.message}`;
}

/** The reason a parse failed, after `prefix` ("mcp.json: server \"a\": "): its first issue, as the old checks did. */
export function zodReason(error: z.ZodError, prefix = ''): string {
  const [first] = error.issues;
  return prefix + (first ? issueReason(first) : 'is not valid');
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
