// Reads a tool's parameter schema defensively: tool.json and MCP schemas can hold anything, and lint must not throw.
import { MAX_CHECKED_TEXT } from './text';

/**
 * How deep the walk descends through nested `properties` and array `items`. Real tool schemas stay
 * within three or four levels; the cap (with a guard against an object that contains itself) keeps a
 * hand-built cyclic schema safe.
 */
export const MAX_PARAMETER_DEPTH = 10;

/** One parameter of a tool's schema, at any depth. */
export interface ParameterNode {
  /** Dotted path for messages: `mode`, `options.mode`, `files[].path`. */
  path: string;
  /** The property's own name (the last part of the path). */
  key: string;
  /** The property's schema, as written (not necessarily an object). */
  schema: unknown;
  /** True for a property of the parameters object itself; R5 checks only these. */
  topLevel: boolean;
  /** Whether the enclosing object lists the property in `required`. */
  required: boolean;
}

/** A plain JSON object (not null, not an array). */
import { isRecord } from '../../../tools/sdk/values';

export { isRecord };

/**
 * Every parameter: the top-level properties, the properties of nested objects, and the properties of
 * objects inside arrays (`items`, tuple `items` arrays and `prefixItems`), recursively up to
 * MAX_PARAMETER_DEPTH. Combinators (anyOf/oneOf/allOf), $ref, additionalProperties and
 * patternProperties are not entered: their branches are alternatives described by the parameter itself.
 */
export function walkParameters(parameters: unknown): ParameterNode[] {
  const nodes: ParameterNode[] = [];
  visitProperties(parameters, '', 0, nodes, new Set());
  return nodes;
}

/** The `type` of a schema as a list: handles `"string"`, `["string", "null"]` and odd values. */
export function schemaTypes(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const { type } = schema;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

/** The enum values that constrain a parameter: its own `enum`, or its array items' `enum`. */
export function enumValues(schema: unknown): unknown[] | undefined {
  if (!isRecord(schema)) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum;
  if (isRecord(schema.items) && Array.isArray(schema.items.enum)) return schema.items.enum;
  return undefined;
}

/** True for object, array and enum parameters, whose descriptions must say more (R3). */
export function isNontrivial(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const types = schemaTypes(schema);
  return (
    types.includes('object') ||
    types.includes('array') ||
    Array.isArray(schema.enum) ||
    // A schema that declares properties or items is an object or array even without `type`.
    isRecord(schema.properties) ||
    schema.items !== undefined
  );
}

/** The parameter's description, trimmed; '' when it is missing or not a string. */
export function descriptionOf(schema: unknown): string {
  // Cut before trimming: a runaway description is read only as far as the pattern checks go (text.ts).
  return isRecord(schema) && typeof schema.description === 'string'
    ? schema.description.slice(0, MAX_CHECKED_TEXT).trim()
    : '';
}

function visitProperties(
  schema: unknown,
  prefix: string,
  depth: number,
  nodes: ParameterNode[],
  ancestors: Set<object>,
): void {
  // Only an enclosing schema counts as a cycle: a sub-schema shared by two parameters is walked under both.
  if (!isRecord(schema) || depth > MAX_PARAMETER_DEPTH || ancestors.has(schema)) return;
  const { properties } = schema;
  if (!isRecord(properties)) return;
  const required = requiredNames(schema);
  ancestors.add(schema);
  for (const [key, child] of Object.entries(properties)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    nodes.push({
      path: shownPath(path),
      key,
      schema: child,
      topLevel: depth === 0,
      required: required.has(key),
    });
    visitChildren(child, path, depth + 1, nodes, ancestors);
  }
  ancestors.delete(schema);
}

function visitChildren(
  schema: unknown,
  path: string,
  depth: number,
  nodes: ParameterNode[],
  ancestors: Set<object>,
): void {
  if (!isRecord(schema) || depth > MAX_PARAMETER_DEPTH) return;
  visitProperties(schema, path, depth, nodes, ancestors);
  const items: unknown[] = Array.isArray(schema.items) ? [...schema.items] : [schema.items];
  if (Array.isArray(schema.prefixItems)) items.push(...schema.prefixItems);
  for (const item of items) visitChildren(item, `${path}[]`, depth + 1, nodes, ancestors);
}

function requiredNames(schema: Record<string, unknown>): Set<string> {
  const { required } = schema;
  if (!Array.isArray(required)) return new Set();
  return new Set(required.filter((name): name is string => typeof name === 'string'));
}

// Keys come from outside and may be any length: a message quotes at most this much of a path.
const MAX_SHOWN_PATH = 120;

function shownPath(path: string): string {
  return path.length > MAX_SHOWN_PATH ? `${path.slice(0, MAX_SHOWN_PATH)}…` : path;
}
