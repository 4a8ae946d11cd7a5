// R5: optional parameters declare the default the handler applies; required ones cannot have one.
import { lintFinding } from './codes';
import type { ParameterNode } from './schema-walk';
import { isRecord } from './schema-walk';
import type { LintFinding } from './types';

/** R5 findings for the top-level parameters (a nested property's default is the enclosing object's business). */
export function lintDefaults(parameters: readonly ParameterNode[]): LintFinding[] {
  return parameters
    .filter((node) => node.topLevel)
    .flatMap((node) => {
      const declared = hasDefault(node.schema);
      if (node.required && declared) {
        return [
          lintFinding(
            'R5_REQUIRED_HAS_DEFAULT',
            `required parameter "${node.path}" declares a default: remove the default, or make the parameter ` +
              `optional by taking it out of "required"`,
          ),
        ];
      }
      if (!node.required && !declared) {
        return [
          lintFinding(
            'R5_MISSING_DEFAULT',
            `optional parameter "${node.path}" declares no default: add "default" with the value the handler ` +
              `uses when it is missing, or list it in "required" (the handler must still defend against ` +
              `a missing or null value)`,
          ),
        ];
      }
      return [];
    });
}

// `default: null` is a declared default; a JS `undefined` is not (JSON cannot carry it).
function hasDefault(schema: unknown): boolean {
  return isRecord(schema) && Object.hasOwn(schema, 'default') && schema.default !== undefined;
}
