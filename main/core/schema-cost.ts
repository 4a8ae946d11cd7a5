// The work a stranger's schema may ask of Ajv (docs/security.md, "A hostile MCP server"), checked before it is
// compiled. Each bound answers a schema that was small as text and froze the main thread, every chat with it:
// - `$ref`s are followed as Ajv follows them, so a chain of `anyOf: [{$ref: next}, {$ref: next}]` is as large as
//   its expansion: 22 links of a 2 KiB schema took 15 s to check one number, each link doubling it;
// - a recursive `$ref` may be reached at most once for the same value: two branches that both recurse into the same
//   property re-check it twice at each level, 13 s for an argument nested 20 deep;
// - Ajv's compile takes about half a millisecond a subschema: 10,000 properties (within 512 KiB) took 6 s;
// - the subschemas that apply to one item (or additional property) apply to each of them: 1,200 on 200,000 items
//   took 35 s;
// - each `patternProperties` pattern is matched against every key: 3,000 of them on 30,000 keys took a minute.
// The walk is itself bounded: it stops at the first limit passed.
import type { JsonSchema } from '../../tools/sdk/types';

/** How many subschemas (and enum/const values) a schema may expand to, `$ref`s followed. */
export const MAX_SCHEMA_WORK = 2500;
/**
 * How many subschemas may apply to each one of many values (an item, an additional or pattern-matched property):
 * such values may number 500,000 in a 1 MiB argument, and 1,200 subschemas on each of 200,000 items took 35 s.
 */
export const MAX_SCHEMAS_PER_REPEATED_VALUE = 64;
/** How many patterns one `patternProperties` may hold. */
export const MAX_PATTERN_PROPERTIES = 16;

// Keywords whose subschemas apply to the same value as their parent.
const SAME_VALUE_ONE = ['not', 'if', 'then', 'else'];
const SAME_VALUE_LIST = ['allOf', 'anyOf', 'oneOf'];
const SAME_VALUE_MAP = ['dependentSchemas', 'dependencies'];
// Keywords whose subschemas apply to a part of the value: a property by name, or any item or property.
const CHILD_ONE = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
];
const CHILD_LIST = ['items', 'prefixItems'];
const CHILD_MAP = ['properties', 'patternProperties'];
const REF_KEYWORDS = ['$ref', '$recursiveRef', '$dynamicRef'];
// A property that may be any: an item, an additional or pattern-matched property.
const ANY = '*';

interface Entry {
  target: object;
  depth: number;
  backEdges: string[][];
}

class Refused extends Error {}

/** Why `schema` would cost Ajv more than the limits allow (naming the limit), or null when it is within them. */
export function schemaCostProblem(schema: JsonSchema): string | null {
  const cost = schemaWork(schema);
  return typeof cost === 'string' ? cost : null;
}

/** The subschemas and values `schema` expands to (what its compile costs), or why it is past the limits. */
export function schemaWork(schema: JsonSchema): number | string {
  const walk = new CostWalk(schema);
  try {
    walk.run();
    return walk.work;
  } catch (error) {
    if (error instanceof Refused) return error.message;
    if (error instanceof RangeError) return 'its $ref chain is too deep to follow';
    throw error;
  }
}

class CostWalk {
  work = 0;
  private readonly anchors = new Map<string, object>();
  private readonly entries: Entry[] = [];
  private readonly path: string[] = [];
  // How many subschemas apply to the values at each path that repeats (holds a `*` step).
  private readonly repeated = new Map<string, number>();

  constructor(private readonly root: JsonSchema) {
    this.collectAnchors(root, 0);
  }

  run(): void {
    this.enter(this.root);
  }

  private enter(target: object): void {
    this.entries.push({ target, depth: this.path.length, backEdges: [] });
    this.visit(target);
    this.entries.pop();
  }

  private visit(node: unknown): void {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    this.spend(1);
    if (this.path.includes(ANY)) this.countRepeated();
    const schema = node as Record<string, unknown>;
    for (const keyword of ['enum', 'const']) {
      if (keyword in schema) this.spend(valueSize(schema[keyword]));
    }
    for (const keyword of REF_KEYWORDS) {
      if (typeof schema[keyword] === 'string') this.follow(schema[keyword]);
    }
    for (const keyword of SAME_VALUE_ONE) this.visit(schema[keyword]);
    for (const keyword of SAME_VALUE_LIST) this.visitEach(schema[keyword]);
    for (const keyword of SAME_VALUE_MAP) this.visitValues(schema[keyword]);
    for (const keyword of CHILD_ONE) this.child(ANY, schema[keyword]);
    for (const keyword of CHILD_LIST) {
      if (Array.isArray(schema[keyword])) for (const item of schema[keyword]) this.child(ANY, item);
    }
    const patterns = schema.patternProperties;
    if (isRecord(patterns) && Object.keys(patterns).length > MAX_PATTERN_PROPERTIES) {
      throw new Refused(
        `one patternProperties holds ${Object.keys(patterns).length} patterns; the limit is ${MAX_PATTERN_PROPERTIES}`,
      );
    }
    for (const keyword of CHILD_MAP) {
      const map = schema[keyword];
      if (!isRecord(map)) continue;
      for (const [name, sub] of Object.entries(map)) this.child(keyword === 'properties' ? name : ANY, sub);
    }
  }

  private child(step: string, sub: unknown): void {
    if (typeof sub !== 'object' || sub === null) return;
    this.path.push(step);
    this.visit(sub);
    this.path.pop();
  }

  private visitEach(list: unknown): void {
    if (Array.isArray(list)) for (const item of list) this.visit(item);
  }

  private visitValues(map: unknown): void {
    if (isRecord(map)) for (const sub of Object.values(map)) this.visit(sub);
  }

  private follow(ref: string): void {
    const target = this.resolve(ref);
    if (!target) {
      // Ajv never fetches (no loadSchema): a reference it cannot resolve fails the compile with its own message.
      return;
    }
    const open = findLast(this.entries, (entry) => entry.target === target);
    if (!open) {
      this.enter(target);
      return;
    }
    // Recursion: fine once per value and level; a second way back for the same value doubles at every level.
    const relative = this.path.slice(open.depth);
    if (open.backEdges.some((seen) => mayMeetSameValue(seen, relative))) {
      throw new Refused(
        `a recursive $ref (${ref.slice(0, 80)}) is reached twice for the same value, which doubles the work at each level of nesting`,
      );
    }
    open.backEdges.push(relative);
  }

  private resolve(ref: string): object | null {
    const anchored = this.anchors.get(ref) ?? (ref === '#' ? this.root : undefined);
    if (anchored) return anchored;
    if (ref.startsWith('#/')) return pointer(this.root, ref.slice(2));
    // Relative to an `$id`, or remote (never fetched): its cost cannot be counted, so it is not compiled.
    throw new Refused(`its $ref "${ref.slice(0, 80)}" cannot be followed to count its cost`);
  }

  private collectAnchors(node: unknown, depth: number): void {
    if (typeof node !== 'object' || node === null || depth > 64) return;
    if (Array.isArray(node)) {
      for (const item of node) this.collectAnchors(item, depth + 1);
      return;
    }
    const schema = node as Record<string, unknown>;
    if (typeof schema.$id === 'string') this.anchors.set(schema.$id, schema);
    for (const keyword of ['$anchor', '$dynamicAnchor']) {
      if (typeof schema[keyword] === 'string') this.anchors.set(`#${schema[keyword]}`, schema);
    }
    for (const [key, value] of Object.entries(schema)) {
      if (key !== 'enum' && key !== 'const') this.collectAnchors(value, depth + 1);
    }
  }

  private countRepeated(): void {
    const key = this.path.join('\u0000');
    const count = (this.repeated.get(key) ?? 0) + 1;
    this.repeated.set(key, count);
    if (count > MAX_SCHEMAS_PER_REPEATED_VALUE) {
      const shown = this.path.map((step) => (step === ANY ? '[*]' : `.${step.slice(0, 40)}`)).join('');
      throw new Refused(
        `more than ${MAX_SCHEMAS_PER_REPEATED_VALUE} subschemas apply to each value at ${shown}, which may repeat many times; the limit is ${MAX_SCHEMAS_PER_REPEATED_VALUE}`,
      );
    }
  }

  private spend(units: number): void {
    this.work += units;
    if (this.work > MAX_SCHEMA_WORK) {
      throw new Refused(
        `it expands to more than ${MAX_SCHEMA_WORK} subschemas and values with its $refs followed; the limit is ${MAX_SCHEMA_WORK}`,
      );
    }
  }
}

// Two ways from a schema to a value may meet the same value unless a step names two different properties.
function mayMeetSameValue(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((step, i) => step === b[i] || step === ANY || b[i] === ANY);
}

// JSON values an enum or const holds, counted as Ajv's deep-equal would walk them (capped by the work left).
function valueSize(value: unknown): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0 && count <= MAX_SCHEMA_WORK) {
    const item = stack.pop();
    count++;
    if (Array.isArray(item)) stack.push(...(item as unknown[]));
    else if (isRecord(item)) stack.push(...Object.values(item));
  }
  return count;
}

function pointer(root: unknown, path: string): object | null {
  let node = root;
  for (const raw of path.split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return null;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' && node !== null ? node : null;
}

function findLast<T>(list: T[], test: (item: T) => boolean): T | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i] as T)) return list[i];
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
