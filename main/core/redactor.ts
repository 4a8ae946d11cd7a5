// Replaces every secret value seen in this process with `[redacted:KEY]` (docs/security.md, "Redaction"): the value
// itself, its case-folded, percent-encoded, JSON-escaped and base64 forms, pieces of it next to an output cap's cut,
// and, in streams, any end that could still become one.
import type { ContentPart } from '../../tools/sdk/types';
import type { CallOutcome } from './outcome';
import { scrubCuts } from './redaction-cuts';
import { scrubAcross, scrubWrapped } from './redaction-joins';
import type { KeyedForm } from './secret-matcher';
import { replaceMatches, SecretMatcher } from './secret-matcher';
import { MIN_SECRET_LENGTH, secretForms } from './secret-forms';
import { StreamRedactor } from './stream-redactor';

/** Most nodes redactDeep visits; the rest of a larger value is replaced by a note (its cost stays bounded). */
export const MAX_DEEP_NODES = 1_000_000;

/** Holds the secret values read or written in this process and scrubs them from text. */
export class Redactor {
  private readonly values = new Map<string, string>();
  private compiled: SecretMatcher | null = null;
  private changes = 0;
  // Object keys as redactDeep scrubbed them: calls' values use the same few keys (`type`, `text`, `content`) over and
  // over. Emptied whenever a secret is added, and when full.
  private readonly keys = new Map<string, string>();

  /** Remembers a secret value under its key name; values shorter than 4 characters are too common to scrub. */
  add(key: string, value: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.values.get(value) === key) return;
    this.values.set(value, key);
    this.compiled = null;
    this.keys.clear();
    this.changes++;
  }

  /** Changes whenever a secret is added (streams re-read the forms then). */
  get revision(): number {
    return this.changes;
  }

  /** The compiled forms of every secret. */
  matcher(): SecretMatcher {
    if (this.compiled) return this.compiled;
    const forms: KeyedForm[] = [];
    // Longer secrets first: a form two secrets share is named after the longer one.
    const entries = [...this.values.entries()].sort((a, b) => b[0].length - a[0].length);
    for (const [value, key] of entries) for (const form of secretForms(value)) forms.push({ ...form, key });
    this.compiled = new SecretMatcher(forms);
    return this.compiled;
  }

  /** Scrubs every known secret, in any of its forms, from `text`. */
  redact(text: string): string {
    if (this.values.size === 0 || text.length < MIN_SECRET_LENGTH) return text;
    const matcher = this.matcher();
    return scrubCuts(scrubWrapped(replaceMatches(text, matcher.find(text)), matcher), matcher);
  }

  /**
   * A call's outcome with every secret scrubbed, also one cut across two of its text parts (the model reads them
   * one after another; main/core/redaction-joins.ts).
   */
  redactOutcome(outcome: CallOutcome): CallOutcome {
    if (this.values.size === 0 || outcome.outcome !== 'ok' || outcome.content.length < 2)
      return this.redactDeep(outcome);
    const holders = outcome.content.filter(
      (part): part is TextHolder => part.type !== 'image' && part.text !== undefined,
    );
    const scrubbed = scrubAcross(
      holders.map((part) => part.text as string),
      this.matcher(),
    );
    if (scrubbed === null) return this.redactDeep(outcome);
    const texts = new Map<ContentPart, string>(holders.map((part, i) => [part, scrubbed[i] as string]));
    const content = outcome.content.map((part) => {
      const text = texts.get(part);
      return text === undefined ? part : { ...part, text };
    });
    // The outcome's text is its text parts joined (main/core/outcome.ts, okOutcome): joined again from the scrubbed.
    const text = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    return this.redactDeep({ ...outcome, content, text });
  }

  /** A redactor for one stream of text arriving in pieces (see StreamRedactor). */
  stream(): StreamRedactor {
    return new StreamRedactor(this);
  }

  /**
   * Scrubs every string (keys included) inside a JSON-like value and returns a JSON-shaped copy (what
   * JSON.parse(JSON.stringify(value)) would give). Iterative: no depth of nesting can overflow the stack; a cycle
   * becomes "[circular]" and past MAX_DEEP_NODES nodes the rest becomes "[too large to redact]".
   */
  redactDeep<T>(value: T): T {
    if (this.values.size === 0) return value;
    const walk: Walk = {
      visited: 0,
      open: new Set(),
      redact: (text) => this.redact(text),
      redactKey: (key) => this.redactKey(key),
    };
    const copy = copyValue(value, walk, 0);
    return (copy === undefined ? null : copy) as T;
  }

  private redactKey(key: string): string {
    if (key.length > MAX_KEPT_KEY_CHARS) return this.redact(key);
    let clean = this.keys.get(key);
    if (clean === undefined) {
      clean = this.redact(key);
      if (this.keys.size >= MAX_KEPT_KEYS) this.keys.clear();
      this.keys.set(key, clean);
    }
    return clean;
  }
}

// A content part that may carry text (a resource's text is read like a text part's).
type TextHolder = Exclude<ContentPart, { type: 'image' }>;

/** Most object keys a redactor keeps the scrubbed form of, and the longest it keeps. */
const MAX_KEPT_KEYS = 1024;
const MAX_KEPT_KEY_CHARS = 64;

/** How deep redactDeep copies by recursion; below that, one iterative walk copies the rest (no stack overflow). */
const RECURSIVE_DEPTH = 100;

// One redactDeep: nodes visited so far, the objects being copied (for cycles), the scrub of one string.
interface Walk {
  visited: number;
  readonly open: Set<object>;
  readonly redact: (text: string) => string;
  readonly redactKey: (key: string) => string;
}

// The copy of one node and everything under it; undefined where JSON leaves a value out. Recursive near the top,
// where calls' values (arguments, outcomes, events) all are: no frame or closure per node, which the iterative walk
// below needs (docs/dispatch.md, "The hot path"). Both visit nodes in the same order and do the same per node.
function copyValue(node: unknown, walk: Walk, depth: number): unknown {
  if (depth > RECURSIVE_DEPTH) return deepCopy(node, walk);
  if (++walk.visited > MAX_DEEP_NODES) return '[too large to redact]';
  let value = node;
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    value = (value as { toJSON: () => unknown }).toJSON();
  if (typeof value === 'string') return walk.redact(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return undefined;
  if (walk.open.has(value)) return '[circular]';
  walk.open.add(value);
  let copy: unknown[] | Record<string, unknown>;
  if (Array.isArray(value)) {
    const items = value as unknown[];
    const list = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i++) {
      const item = copyValue(items[i], walk, depth + 1);
      list[i] = item === undefined ? null : item;
    }
    copy = list;
  } else {
    const record: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (!keptInObject(item)) continue;
      const name = walk.redactKey(key);
      const child = copyValue(item, walk, depth + 1);
      if (child === undefined) delete record[name];
      else put(record, name, child);
    }
    copy = record;
  }
  walk.open.delete(value);
  return copy;
}

type Frame =
  { kind: 'value'; value: unknown; set: (copy: unknown) => void } | { kind: 'leave'; node: object };

// copyValue without recursion, for what lies deeper than RECURSIVE_DEPTH.
function deepCopy(root: unknown, walk: Walk): unknown {
  const { open, redact } = walk;
  let result: unknown = null;
  const stack: Frame[] = [{ kind: 'value', value: root, set: (copy) => (result = copy) }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.kind === 'leave') {
      open.delete(frame.node);
      continue;
    }
    let value = frame.value;
    if (++walk.visited > MAX_DEEP_NODES) {
      frame.set('[too large to redact]');
      continue;
    }
    if (
      value !== null &&
      typeof value === 'object' &&
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
    )
      value = (value as { toJSON: () => unknown }).toJSON();
    if (typeof value === 'string') frame.set(redact(value));
    else if (typeof value === 'number') frame.set(Number.isFinite(value) ? value : null);
    else if (typeof value === 'boolean' || value === null) frame.set(value);
    else if (typeof value === 'bigint') frame.set(value.toString());
    else if (typeof value !== 'object') frame.set(undefined);
    else if (open.has(value)) frame.set('[circular]');
    else {
      open.add(value);
      stack.push({ kind: 'leave', node: value });
      if (Array.isArray(value)) {
        const copy: unknown[] = new Array<unknown>(value.length).fill(null);
        frame.set(copy);
        for (let i = value.length - 1; i >= 0; i--)
          stack.push({
            kind: 'value',
            value: value[i],
            set: (item) => (copy[i] = item === undefined ? null : item),
          });
      } else {
        const copy: Record<string, unknown> = {};
        frame.set(copy);
        const entries = Object.entries(value).filter(([, item]) => keptInObject(item));
        for (const [key] of entries) put(copy, redact(key), null);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [key, item] = entries[i] as [string, unknown];
          const name = redact(key);
          stack.push({
            kind: 'value',
            value: item,
            set: (copy2) => (copy2 === undefined ? delete copy[name] : put(copy, name, copy2)),
          });
        }
      }
    }
  }
  return result;
}

// JSON drops these object members.
function keptInObject(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

// An own property even for "__proto__" (as JSON.parse makes it), never the prototype.
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
