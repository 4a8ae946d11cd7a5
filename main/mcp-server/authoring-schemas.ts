// Parameter schemas of the authoring helpers; they follow the design rules they help others follow (R3, R5).
import type { JsonSchema } from '../../tools/sdk/types';

const name = {
  type: 'string',
  description:
    'Tool name in snake_case, without the script_ prefix it registers under. Example: "convert_units"',
};

const fields = {
  description: {
    type: 'string',
    description:
      'Two or three lines: what it does / when to use it and the alternative / its key limit. ' +
      'Example: "Convert a length between units.\\nUse when a unit must change; use convert_currency for money."',
  },
  parameters: {
    type: 'object',
    description:
      'JSON Schema object of the arguments; every property described, optional ones with a default. Example: {"type": "object", "properties": {}}',
  },
  script: {
    type: 'string',
    description:
      'Source of the script: it reads its arguments as JSON on stdin, prints the result, exits non-zero on failure. ' +
      'Example: "process.stdout.write(\'ok\')"',
  },
  language: {
    type: 'string',
    enum: ['js', 'py'],
    description: 'Script language: "js" runs script.js with node, "py" runs script.py with python3.',
  },
  always_allow: {
    type: 'boolean',
    description: 'True only for a read-only tool: it then runs without asking the user.',
  },
  concurrent: {
    type: 'boolean',
    description: 'True only if the tool has no side effects and may run in parallel with others.',
  },
  timeout: {
    type: 'number',
    exclusiveMinimum: 0,
    description: 'Limit of one call in seconds; without it 900 (15 min). Example: 60',
  },
  secrets: {
    type: 'array',
    items: { type: 'string' },
    description: 'Secret key names the script gets as environment variables. Example: ["GITHUB_TOKEN"]',
  },
};

// For a patch, every field may be left out or null: both keep the current value.
const keep = (schema: Record<string, unknown>): Record<string, unknown> => ({
  ...schema,
  type: [schema.type as string, 'null'],
  ...(schema.enum ? { enum: [...(schema.enum as unknown[]), null] } : {}),
  default: null,
  description: `${schema.description as string} Null or left out keeps the current value.`,
});

/** The parameter schemas, by helper. */
export const AUTHORING_PARAMETERS: Record<'create' | 'patch' | 'test' | 'list', JsonSchema> = {
  create: {
    type: 'object',
    properties: {
      name,
      ...fields,
      language: { ...fields.language, default: 'js' },
      always_allow: { ...fields.always_allow, default: false },
      concurrent: { ...fields.concurrent, default: false },
      timeout: { ...fields.timeout, default: 900 },
      secrets: { ...fields.secrets, default: [] },
      overwrite: {
        type: 'boolean',
        default: false,
        description: 'Replace an existing folder of that name instead of failing.',
      },
    },
    required: ['name', 'description', 'parameters', 'script'],
    additionalProperties: false,
  },
  patch: {
    type: 'object',
    properties: {
      name,
      ...Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, keep(schema)])),
    },
    required: ['name'],
    additionalProperties: false,
  },
  test: {
    type: 'object',
    properties: {
      name,
      args: {
        type: 'object',
        default: {},
        description:
          'Sample arguments, checked against the tool schema before it runs. Example: {"value": 3, "from": "mi"}',
      },
    },
    required: ['name'],
    additionalProperties: false,
  },
  list: { type: 'object', properties: {}, additionalProperties: false },
};
