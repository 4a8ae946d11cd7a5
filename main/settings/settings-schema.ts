// The zod schema of settings.json ($AGENVOY_HOME/desktop/settings.json), the whole file in one object: the provider
// fields (docs/agent-loop.md, "Provider settings"), the desktop's default workspace, the `web` block of the web tools
// (its keys: tools/sdk/web/web-settings.ts) and the `limits` block (docs/robustness.md). Every field is optional, and
// each check's message is what follows the field's name in an error or a warning ("must be …"). settings-file.ts
// reads the file through it; no part of the app reads settings.json another way.
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_TOOL_ARGUMENTS_BYTES } from '../core/argument-size';
import { REASONING_LEVELS } from '../core/model-usage';

/**
 * Every provider, in the order a settings screen lists them. Each speaks one of two wire formats (providerWire):
 * Anthropic's Messages API, or OpenAI's Chat Completions, which every other one here speaks.
 */
export const PROVIDER_KINDS = [
  'anthropic',
  'openai',
  'openrouter',
  'deepseek',
  'ollama',
  'lmstudio',
  'custom',
] as const;

/** A provider the settings may name. */
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** The two wire formats. */
export type ProviderWire = 'anthropic' | 'openai';

/** The wire format `kind` speaks. */
export function providerWire(kind: ProviderKind): ProviderWire {
  return kind === 'anthropic' ? 'anthropic' : 'openai';
}

// Secret names double as environment variable names (the last step of the secret lookup).
const KEY_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One message for every check of a field: the field is wrong, whatever check it failed. */
const says = (error: string) => ({ error });

/** The provider fields one layer (the file, the environment, command-line flags) may set. */
export const providerLayerSchema = z.object({
  provider: z
    .enum(PROVIDER_KINDS, says(`must be one of ${PROVIDER_KINDS.map((kind) => `"${kind}"`).join(', ')}`))
    .optional(),
  baseUrl: z.url({ protocol: /^https?$/, ...says('must be an http:// or https:// URL') }).optional(),
  model: z
    .string(says('must be a non-empty string'))
    .refine((model) => model.trim() !== '', says('must be a non-empty string'))
    .optional(),
  apiKeyName: z
    .string(says('must be a key name such as "OPENAI_API_KEY", or null for no key'))
    .regex(KEY_NAME, says('must be a key name such as "OPENAI_API_KEY", or null for no key'))
    .nullable()
    .optional(),
});

/** The names of the provider fields. */
export const PROVIDER_FIELDS = Object.keys(providerLayerSchema.shape) as ReadonlyArray<
  keyof typeof providerLayerSchema.shape
>;

/** Every bound the `limits` block sets, resolved. */
export interface RuntimeLimits {
  /** One tool call's arguments (JSON text); past it the call is refused. */
  toolArgumentsBytes: number;
  /** One server-sent event of the model's stream; past it the round fails. */
  providerEventBytes: number;
  /** From the request to the first byte of an event of the answer (comments do not count). */
  providerFirstByteSeconds: number;
  /** Between two bytes of events once the answer has started (comments do not count). */
  providerIdleSeconds: number;
}

/** The defaults: 1 MiB of arguments, 8 MiB per event, 300 s to the first byte and between bytes (local CPU models are slow to start). */
export const DEFAULT_LIMITS: Readonly<RuntimeLimits> = {
  toolArgumentsBytes: DEFAULT_TOOL_ARGUMENTS_BYTES,
  providerEventBytes: 8 * 1024 * 1024,
  providerFirstByteSeconds: 300,
  providerIdleSeconds: 300,
};

/** The range of each bound; byte sizes are whole numbers, times may be fractions of a second (tests use 0.2 s). */
export const LIMIT_RULES: Readonly<
  Record<keyof RuntimeLimits, { min: number; max: number; unit: 'bytes' | 'seconds' }>
> = {
  toolArgumentsBytes: { min: 1024, max: 1024 ** 3, unit: 'bytes' },
  providerEventBytes: { min: 1024, max: 1024 ** 3, unit: 'bytes' },
  providerFirstByteSeconds: { min: 0.01, max: 86_400, unit: 'seconds' },
  providerIdleSeconds: { min: 0.01, max: 86_400, unit: 'seconds' },
};

function limit(field: keyof RuntimeLimits) {
  const { min, max, unit } = LIMIT_RULES[field];
  const kind = unit === 'bytes' ? 'a whole number of bytes' : 'a number of seconds';
  const error = says(`must be ${kind} from ${min} to ${max}`);
  const number = z.number(error).min(min, error).max(max, error);
  return (unit === 'bytes' ? number.int(error) : number).optional();
}

/** What an object's own issue says: the message given for a value that is no object, the default for the rest. */
const objectError = (message: string) => ({
  error: (issue: { code: string }) => (issue.code === 'invalid_type' ? message : undefined),
});

/** The `limits` block. */
export const limitsSchema = z.strictObject(
  {
    toolArgumentsBytes: limit('toolArgumentsBytes'),
    providerEventBytes: limit('providerEventBytes'),
    providerFirstByteSeconds: limit('providerFirstByteSeconds'),
    providerIdleSeconds: limit('providerIdleSeconds'),
  },
  objectError('must be an object'),
);

const text = () => z.string(says('must be a string')).optional();
const MEDIA_API = { baseUrl: text(), model: text(), keyName: text() };
const HOSTS = says('must be a list of host names, IP addresses or CIDR ranges');
const PROGRAM = says('must be the path of the Chromium program');

/** The `web` block: what the web tools may reach and which services they use (tools/sdk/web/web-settings.ts). */
export const webSchema = z.strictObject(
  {
    allowPrivateNetwork: z.boolean(says('must be true or false')).optional(),
    allowedHosts: z
      .array(
        z.string(HOSTS).refine((host) => host.trim() !== '', HOSTS),
        HOSTS,
      )
      .optional(),
    chromiumPath: z.string(PROGRAM).min(1, PROGRAM).optional(),
    search: z
      .strictObject(
        {
          backend: z.enum(['searxng', 'brave'], says('must be "searxng" or "brave"')).optional(),
          url: text(),
          keyName: text(),
        },
        objectError('must be an object'),
      )
      .optional(),
    images: z.strictObject(MEDIA_API, objectError('must be an object')).optional(),
    audio: z.strictObject({ ...MEDIA_API, voice: text() }, objectError('must be an object')).optional(),
  },
  objectError('must be an object'),
);

/** Longest embedding model id settings.json takes (real ids are tens of characters). */
export const MAX_EMBEDDING_MODEL = 200;

const EMBEDDING_MODEL = says(`must be a model id of at most ${MAX_EMBEDDING_MODEL} characters ("" for none)`);

/** The `search` block: the optional embedding model of find_tools (docs/search.md, "Embeddings (optional)"). */
export const searchSchema = z.strictObject(
  {
    embeddingModel: z.string(EMBEDDING_MODEL).trim().max(MAX_EMBEDDING_MODEL, EMBEDDING_MODEL).optional(),
  },
  objectError('must be an object'),
);

/** The thinking budgets settings.json takes; a request keeps the budget within the model's output limit. */
export const THINKING_BUDGET = { min: 1024, max: 127_999 } as const;

const PRICE = says('must be a number of US dollars per million tokens, from 0 to 10000');
const price = () => z.number(PRICE).min(0, PRICE).max(10_000, PRICE);
const MODEL_ID = says('must be a model id of 1 to 200 characters');

/** One row of the `prices` table. */
export const priceSchema = z.strictObject(
  {
    model: z.string(MODEL_ID).trim().min(1, MODEL_ID).max(200, MODEL_ID),
    input: price(),
    output: price(),
    cacheRead: price().nullable().default(null),
    cacheWrite: price().nullable().default(null),
  },
  objectError('must be an object with "model", "input" and "output"'),
);

/** The whole file. A key it does not name is kept on save and named in a warning. */
export const settingsSchema = z.strictObject(
  {
    ...providerLayerSchema.shape,
    /** The default workspace of new chats (the settings screen); absent, each chat gets a folder of its own. */
    defaultWorkspace: z
      .string(says('must be an absolute path'))
      .refine((folder) => path.isAbsolute(folder), says('must be an absolute path'))
      .optional(),
    web: webSchema.optional(),
    limits: limitsSchema.optional(),
    search: searchSchema.optional(),
    reasoning: z
      .enum(REASONING_LEVELS, says(`must be one of ${REASONING_LEVELS.map((l) => `"${l}"`).join(', ')}`))
      .optional(),
    thinkingBudgetTokens: z
      .number(says(`must be a whole number of tokens from ${THINKING_BUDGET.min} to ${THINKING_BUDGET.max}`))
      .int(says(`must be a whole number of tokens from ${THINKING_BUDGET.min} to ${THINKING_BUDGET.max}`))
      .min(
        THINKING_BUDGET.min,
        says(`must be a whole number of tokens from ${THINKING_BUDGET.min} to ${THINKING_BUDGET.max}`),
      )
      .max(
        THINKING_BUDGET.max,
        says(`must be a whole number of tokens from ${THINKING_BUDGET.min} to ${THINKING_BUDGET.max}`),
      )
      .optional(),
    /** Whether the desktop app checks for and downloads updates (docs/release.md, "Updates"); absent: true. */
    autoUpdate: z.boolean(says('must be true or false')).optional(),
    prices: z
      .array(priceSchema, says('must be a list of prices'))
      .max(1000, says('must be a list of at most 1000 prices'))
      .optional(),
  },
  objectError('must hold a JSON object'),
);

/** The top-level keys of settings.json some part of the app reads; others are kept on save and named in a warning. */
export const KNOWN_SETTINGS_KEYS: readonly string[] = Object.keys(settingsSchema.shape);

/** What one layer (file, environment, flags) sets; absent fields fall through. */
export type SettingsLayer = z.output<typeof providerLayerSchema>;
