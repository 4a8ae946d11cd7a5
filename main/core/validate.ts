// Argument validation with Ajv against a tool's JSON Schema (draft-07 by default, 2019-09 and 2020-12 by $schema).
// Ajv loads with the first schema compiled, not at start: a command that validates nothing (tools list over the
// built-ins) never pays for it (docs/hosts.md, "Fast start"). Ajv and ajv-formats are CommonJS only, so the lazy
// require returns the same module instances an import would.
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type * as AjvModule from 'ajv';
import type * as Ajv2019Module from 'ajv/dist/2019.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import type * as AjvFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../../tools/sdk/types';
import { useLinearFormats } from './linear-formats';
import { linearRegExp } from './linear-regexp';
import { useLinearUniqueItems } from './linear-unique';
import { schemaCostProblem } from './schema-cost';

const requireCjs = createRequire(import.meta.url);
type AddFormats = typeof AjvFormatsModule.default;
type Ajv2019 = InstanceType<typeof Ajv2019Module.Ajv2019>;
type Ajv2020 = InstanceType<typeof Ajv2020Module.Ajv2020>;

/** Bumped when options() change: compile results remembered for another version or options are not reused. */
const OPTIONS_VERSION = 4;

/** Names the validator (Ajv's and ajv-formats' versions, our options), for caches of compile results. */
export function validatorId(): string {
  const version = (name: string) => (requireCjs(`${name}/package.json`) as { version: string }).version;
  return `ajv@${version('ajv')}+formats@${version('ajv-formats')}/options-${OPTIONS_VERSION}`;
}

/** The result of validating one call's arguments. */
export type ValidationResult = { ok: true } | { ok: false; message: string; fields: string[] };

// The answer of every valid call, shared: frozen, since callers get this very object.
const VALID: ValidationResult = Object.freeze({ ok: true });

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/** Compiles and caches validators per schema object; an uncompilable schema is reported, not thrown. */
export class ArgumentValidator {
  private draft07: Ajv | null = null;
  private draft2019: Ajv2019 | null = null;
  private draft2020: Ajv2020 | null = null;
  private readonly cache = new WeakMap<object, ValidateFunction | Error>();

  /** Validates `args` against `schema`; the message names the bad field(s). */
  validate(toolName: string, schema: JsonSchema, args: unknown): ValidationResult {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return {
        ok: false,
        message: `invalid arguments for ${toolName}: arguments must be a JSON object`,
        fields: [],
      };
    }
    const validate = this.compile(schema);
    if (validate instanceof Error) {
      return {
        ok: false,
        message: `tool ${toolName} has an invalid parameter schema: ${validate.message}`,
        fields: [],
      };
    }
    let valid: boolean;
    try {
      valid = validate(args) as boolean;
    } catch (error) {
      // A recursive schema over arguments nested deep enough overflows the validator's own recursion.
      return {
        ok: false,
        message: `invalid arguments for ${toolName}: they could not be checked (${(error as Error).message})`,
        fields: [],
      };
    }
    if (valid) return VALID;
    const errors = (validate.errors ?? []).slice(0, 5);
    const fields = errors.map(fieldOf);
    const details = errors.map((e) => describe(e)).join('; ');
    return { ok: false, message: `invalid arguments for ${toolName}: ${details}`, fields };
  }

  /** Why `schema` cannot be compiled, or null when it can (the compiled validator is kept for the calls). */
  check(schema: JsonSchema): string | null {
    const compiled = this.compile(schema);
    return compiled instanceof Error ? compiled.message : null;
  }

  private compile(schema: JsonSchema): ValidateFunction | Error {
    const cached = this.cache.get(schema);
    if (cached) return cached;
    let compiled: ValidateFunction | Error;
    try {
      // docs/security.md, "A hostile MCP server": a schema that would cost Ajv too much is not compiled at all.
      const cost = schemaCostProblem(schema);
      if (cost) throw new Error(`the schema costs too much to check: ${cost}`);
      const { $schema, ...rest } = schema;
      const engine = this.engineFor(typeof $schema === 'string' ? $schema : '');
      compiled = engine.compile(rest);
      // Ajv keeps every compiled schema in its own cache; ours is weak, so a replaced tool's validator can go.
      engine.removeSchema(rest);
    } catch (error) {
      compiled = error instanceof Error ? error : new Error(String(error));
    }
    this.cache.set(schema, compiled);
    return compiled;
  }

  private engineFor(dialect: string): AnyAjv {
    if (dialect.includes('2020-12')) {
      this.draft2020 ??= configure(
        new (requireCjs('ajv/dist/2020.js') as typeof Ajv2020Module).Ajv2020(options()),
      );
      return this.draft2020;
    }
    if (dialect.includes('2019-09')) {
      this.draft2019 ??= configure(
        new (requireCjs('ajv/dist/2019.js') as typeof Ajv2019Module).Ajv2019(options()),
      );
      return this.draft2019;
    }
    this.draft07 ??= configure(new (requireCjs('ajv') as typeof AjvModule).Ajv(options()));
    return this.draft07;
  }
}

function options() {
  // strict off: MCP servers ship schemas with vendor keywords; allErrors so one message names every bad field.
  // addUsedSchema off: a tool's `$id` must not clash with another tool's (or its own earlier version's) `$id`.
  return {
    strict: false,
    allErrors: true,
    validateFormats: true,
    allowUnionTypes: true,
    addUsedSchema: false,
    // Ajv would print "unknown format … ignored" for vendor formats straight to the console (the CLI's stderr).
    logger: false,
    // Patterns of a stranger's schema match in linear time (linear-regexp.ts).
    code: { regExp: linearRegExp },
  } as const;
}

function configure<T extends AnyAjv>(ajv: T): T {
  const formats = requireCjs('ajv-formats') as AddFormats | { default: AddFormats };
  // ajv-formats sets its function on module.exports and on `default`.
  const addFormats = 'default' in formats ? formats.default : formats;
  addFormats(ajv as unknown as Ajv);
  useLinearFormats(ajv);
  useLinearUniqueItems(ajv);
  return ajv;
}

function fieldOf(error: ErrorObject): string {
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = error.params as Record<string, unknown>;
  const child =
    (params.missingProperty as string | undefined) ??
    (params.additionalProperty as string | undefined) ??
    (params.propertyName as string | undefined);
  if (child) return base ? `${base}.${child}` : child;
  return base || '(root)';
}

function describe(error: ErrorObject): string {
  const field = fieldOf(error);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required field \`${field}\``;
    case 'additionalProperties':
      return `unknown field \`${field}\``;
    case 'enum':
      return `\`${field}\` must be one of ${JSON.stringify(params.allowedValues)}`;
    case 'type':
      return `\`${field}\` must be ${String(params.type)}`;
    default:
      return `\`${field}\` ${error.message ?? 'is invalid'}`;
  }
}
