// The zod schema of tool.json (docs/tools.md, "Script tools"). Each message is what follows the quoted field in a
// reason (main/core/zod-issues.ts): `"timeout" must be …`; the fields are checked in the order listed here.
import { z } from 'zod';
import { shownValue } from '../../core/zod-issues';
import { SCRIPT_PREFIX } from './manifest-limits';

export { SCRIPT_PREFIX } from './manifest-limits';

// Providers accept tool names of at most 64 characters from [A-Za-z0-9_-]; the prefix takes 7.
const NAME_PATTERN = /^[A-Za-z0-9_-]+$/;
const MAX_NAME_LENGTH = 64 - SCRIPT_PREFIX.length;
const SECRET_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A day is far past any sensible call, and well inside setTimeout's 2^31-1 ms.
const MAX_TIMEOUT_SECONDS = 24 * 60 * 60;
// A tool that needs more writable folders than this wants a narrower design, not a longer list.
const MAX_WRITABLE = 32;
const MAX_PATH_LENGTH = 4096;

const NON_EMPTY = 'must be a non-empty string';
const TRUE_OR_FALSE = 'must be true or false';
const TIMEOUT = `must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}`;
const KEY_NAMES = 'must be an array of key names';
const FOLDER_PATHS = 'must be an array of folder paths';
const SCHEMA_OBJECT = 'must be a JSON Schema object';
const PROPERTY_NAMES = 'must be an array of property names';

const nonEmpty = z.string({ error: NON_EMPTY }).regex(/\S/, { error: NON_EMPTY });
const flag = z.boolean({ error: TRUE_OR_FALSE }).optional();

// The dispatcher validates arguments against this schema, so it must be an object schema. Only its outer shape is
// read here; what lies deeper is bounded, compiled and linted when the tool registers (main/core/tool-broken.ts).
const parameters = z.looseObject(
  {
    type: z.literal('object', { error: 'must be "object"' }).optional(),
    properties: z
      .record(
        z.string(),
        z.union([z.record(z.string(), z.unknown()), z.boolean()], { error: SCHEMA_OBJECT }),
        { error: 'must be an object' },
      )
      .optional(),
    required: z.array(z.string({ error: PROPERTY_NAMES }), { error: PROPERTY_NAMES }).optional(),
  },
  { error: SCHEMA_OBJECT },
);

// Only the shape is checked here; where the paths lead is checked when the tool folder loads (writable-paths.ts).
const usablePath = (issue: { input: unknown }): string =>
  `holds ${shownValue(issue.input, 80)}, which is not a usable path (empty, too long or with a NUL)`;

/** tool.json; unknown keys are not errors, the caller warns about each (tool-manifest.ts). */
export const manifestSchema = z.object(
  {
    name: z
      .string({ error: NON_EMPTY })
      .min(1, { error: NON_EMPTY })
      .regex(NAME_PATTERN, {
        error: (issue) => `may hold only letters, digits, "_" and "-": got ${shownValue(issue.input, 80)}`,
      })
      .max(MAX_NAME_LENGTH, {
        error: `is longer than ${MAX_NAME_LENGTH} characters (script_<name> must fit in 64)`,
      }),
    description: nonEmpty,
    parameters: parameters.optional(),
    always_allow: flag,
    concurrent: flag,
    timeout: z
      .number({ error: TIMEOUT })
      .gt(0, { error: TIMEOUT })
      .max(MAX_TIMEOUT_SECONDS, { error: TIMEOUT })
      .optional(),
    secrets: z
      .array(
        z.string({ error: KEY_NAMES }).regex(SECRET_PATTERN, {
          error: (issue) =>
            `holds ${shownValue(issue.input, 80)}, which is not a valid environment variable name`,
        }),
        { error: KEY_NAMES },
      )
      .optional(),
    writable: z
      .array(
        z
          .string({ error: FOLDER_PATHS })
          .regex(/\S/, { error: usablePath })
          .max(MAX_PATH_LENGTH, { error: usablePath })
          .regex(/^[^\0]*$/, { error: usablePath }),
        { error: FOLDER_PATHS },
      )
      .max(MAX_WRITABLE, { error: `may list at most ${MAX_WRITABLE} folders` })
      .optional(),
  },
  { error: 'tool.json must hold a JSON object' },
);

/**
 * The most a field zod reads item by item may hold as JSON (jsonBoundsProblem's count): room for the longest
 * `writable` list, so a runaway array is refused before zod makes an issue of each item.
 */
export const MAX_FIELD_BYTES = MAX_WRITABLE * (MAX_PATH_LENGTH + 4);

/** The keys tool.json knows, in the order they are checked. */
export const KNOWN_KEYS: readonly string[] = Object.keys(manifestSchema.shape);
