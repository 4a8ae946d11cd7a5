// The validator the MCP client compiles each tool's outputSchema with, guarded: the SDK compiles every output
// schema of a tools/list at once, so one that Ajv cannot compile (or that overflows its recursion) would otherwise
// fail the whole list and with it every tool of the server.
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { useLinearFormats } from '../../core/linear-formats';
import { linearRegExp } from '../../core/linear-regexp';
import { useLinearUniqueItems } from '../../core/linear-unique';
import { schemaCostProblem } from '../../core/schema-cost';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats =
  (addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport;

/** Compiles output schemas as the SDK does; a schema that cannot be compiled fails only its own tool's calls. */
export class GuardedOutputValidator implements jsonSchemaValidator {
  // The SDK's options, plus: no `$id` registry (two tools, or two versions of one, may share an `$id`), and no
  // console warnings (vendor formats would print to the CLI's stderr).
  private readonly ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    addUsedSchema: false,
    logger: false,
    // docs/security.md, "A hostile MCP server": the server's own patterns match in linear time.
    code: { regExp: linearRegExp },
  });
  private readonly inner: AjvJsonSchemaValidator;

  constructor() {
    addFormats(this.ajv as never);
    // docs/security.md, "A hostile MCP server": and its formats too.
    useLinearFormats(this.ajv);
    useLinearUniqueItems(this.ajv);
    this.inner = new AjvJsonSchemaValidator(this.ajv as never);
  }

  /** The validator of one output schema, or one that reports why the schema cannot be used. */
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    try {
      // docs/security.md, "A hostile MCP server": a schema that would cost Ajv too much is not compiled at all.
      const cost = schemaCostProblem(schema as Record<string, unknown>);
      if (cost) throw new Error(`the schema costs too much to check: ${cost}`);
      const validator = this.inner.getValidator<T>(schema);
      // Each tools/list brings new schema objects: Ajv's own cache would keep every one of them.
      this.ajv.removeSchema(schema as object);
      return guarded(validator);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return () => ({
        valid: false,
        data: undefined,
        errorMessage: `the server's output schema for this tool cannot be used (${reason.slice(0, 300)})`,
      });
    }
  }
}

// Validating deeply nested structured content against a recursive schema can overflow too: a failed check, not a throw.
function guarded<T>(validator: JsonSchemaValidator<T>): JsonSchemaValidator<T> {
  return (input) => {
    try {
      return validator(input);
    } catch (error) {
      return {
        valid: false,
        data: undefined,
        errorMessage: `the structured result could not be checked (${(error as Error).message})`,
      };
    }
  };
}
