// The design-rule linter (docs/tools.md, "Design rules"): R1 name, R2 description, R3 parameter descriptions, R4 English, R5 defaults.
import { strictFinding } from './codes';
import { lintDefaults } from './rules-defaults';
import { lintDescription } from './rules-description';
import { lintLanguage } from './rules-language';
import { lintName } from './rules-name';
import { lintParameterDescriptions } from './rules-parameters';
import { walkParameters } from './schema-walk';
import type { LintFinding, LintInput } from './types';

/** Every R1–R5 finding for a tool, in rule order (built-in levels when `strict`); never throws, whatever it holds. */
export function lintTool(input: LintInput): LintFinding[] {
  // Inputs come from tool.json files and MCP servers too: a non-string is linted as an empty one.
  const name = typeof input.name === 'string' ? input.name : '';
  const description = typeof input.description === 'string' ? input.description : '';
  const parameters = walkParameters(input.parameters);
  const findings = [
    ...lintName(name),
    ...lintDescription(description),
    ...lintParameterDescriptions(parameters),
    ...lintLanguage({ name, description, parameters }),
    ...lintDefaults(parameters),
  ];
  return input.strict === true ? findings.map(strictFinding) : findings;
}
