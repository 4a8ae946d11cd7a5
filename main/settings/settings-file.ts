// settings.json is read here and nowhere else: the file is parsed once, checked against settingsSchema, and each part
// of the app takes its section (provider fields, default workspace, `web`, `limits`). A bad value never stops the
// app. A provider field that cannot be used is the problem the next model call reports (loadSettings throws it);
// any other bad value, and an unknown key, is named in a warning (the file and the field) and its default applies.
// Nothing here walks the input beyond the schema's own few levels, so a value nested 100,000 deep costs nothing.
import type { z } from 'zod';
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import { formatBytes } from '../core/argument-size';
import { FileTooLargeError, readRegularFileSync } from '../core/regular-file';
import { issueField } from '../core/zod-issues';
import type { ModelPrice } from './model-prices';
import type { ReasoningLevel } from '../core/model-usage';
import type { RuntimeLimits, SettingsLayer } from './settings-schema';
import { DEFAULT_LIMITS, LIMIT_RULES, PROVIDER_FIELDS, settingsSchema } from './settings-schema';
import { previewValue } from './settings-value';
import { isRecord } from '../../tools/sdk/values';

/** Where a warning belongs: an unknown top-level key, or a bad value of a section. */
export type SettingsSection =
  | 'file'
  | 'defaultWorkspace'
  | 'web'
  | 'limits'
  | 'search'
  | 'reasoning'
  | 'thinkingBudgetTokens'
  | 'prices'
  | 'autoUpdate';

/** A value that was ignored, named with the file and the field; its default applies. */
export interface SettingsWarning {
  section: SettingsSection;
  text: string;
}

/** settings.json as the app uses it: each section with its defaults applied, and what was wrong with the file. */
export interface SettingsReading {
  file: string;
  /**
   * Why the provider settings cannot be used (the file cannot be read, is not a JSON object, or a provider field is
   * bad), naming the file and the field; null when they can. The other sections still hold what could be read.
   */
  problem: string | null;
  /** The provider fields the file sets (the lowest layer of loadSettings). */
  provider: SettingsLayer;
  /** The default workspace of new chats; null when the file names none (or a bad one). */
  defaultWorkspace: string | null;
  /** The `web` block, for the web tools (tools/sdk/web/web-settings.ts applies its defaults). */
  web: WebSettings;
  limits: RuntimeLimits;
  /** The embedding model find_tools ranks with besides its keywords; null: none (docs/search.md). */
  embeddingModel: string | null;
  /** How much the model reasons unless a chat says otherwise; 'off' when the file says nothing. */
  reasoning: ReasoningLevel;
  /** Anthropic's thinking budget for every level; null: each level's own. */
  thinkingBudgetTokens: number | null;
  /** The person's price table; null when they never saved one (the shipped defaults apply: model-prices.ts). */
  prices: ModelPrice[] | null;
  /** Whether the desktop app checks for updates; true unless the file says false. */
  autoUpdate: boolean;
  warnings: SettingsWarning[];
  /** The file's JSON object as it is, unknown keys included: what a save starts from. Empty when missing or unusable. */
  object: Record<string, unknown>;
}

// Enough of an unknown key to recognise it; the rest is cut. More than this many are counted, not listed.
const KEY_SHOWN = 60;
const KEYS_LISTED = 5;

/** Reads and checks settings.json; a missing file is an empty one. Never throws. */
export function readSettings(file: string): SettingsReading {
  let text: string;
  try {
    text = readRegularFileSync(file, MAX_SETTINGS_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return parseSettings({}, file);
    const why =
      error instanceof FileTooLargeError
        ? `it is larger than ${formatBytes(MAX_SETTINGS_BYTES, true)}`
        : (error as Error).message;
    return unusable(file, `${file}: cannot read: ${why}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return unusable(file, `${file}: not valid JSON: ${(error as Error).message}`);
  }
  return parseSettings(raw, file);
}

/** The most bytes settings.json may hold; it is read whole on every turn. */
export const MAX_SETTINGS_BYTES = 16 * 1024 * 1024;

/** Checks the parsed content of settings.json (`file` names it in messages). Never throws. */
export function parseSettings(raw: unknown, file: string): SettingsReading {
  const checked = settingsSchema.safeParse(raw, { reportInput: true });
  if (checked.success) return reading(file, null, checked.data, [], raw as Record<string, unknown>);
  const { issues } = checked.error;
  const root = issues.find((issue) => issue.path.length === 0 && issue.code !== 'unrecognized_keys');
  if (root || !isRecord(raw)) return unusable(file, `${file}: ${root?.message ?? 'must hold a JSON object'}`);
  const providerIssue = issues.find((issue) => isProviderField(issue.path[0]));
  const problem = providerIssue
    ? `${file}: "${String(providerIssue.path[0])}" ${providerIssue.message} (got ${previewValue(providerIssue.input)})`
    : null;
  // What is left once every bad value and unknown key is taken out is valid: each default applies where one was.
  const kept = settingsSchema.safeParse(withoutIssues(raw, issues));
  return reading(file, problem, kept.success ? kept.data : {}, warningsOf(file, issues), raw);
}

function reading(
  file: string,
  problem: string | null,
  data: z.output<typeof settingsSchema>,
  warnings: SettingsWarning[],
  object: Record<string, unknown>,
): SettingsReading {
  const provider: SettingsLayer = {};
  for (const field of PROVIDER_FIELDS) {
    if (data[field] !== undefined) Object.assign(provider, { [field]: data[field] });
  }
  return {
    file,
    problem,
    provider,
    defaultWorkspace: data.defaultWorkspace ?? null,
    web: data.web ?? {},
    limits: { ...DEFAULT_LIMITS, ...data.limits },
    embeddingModel: data.search?.embeddingModel || null,
    reasoning: data.reasoning ?? 'off',
    thinkingBudgetTokens: data.thinkingBudgetTokens ?? null,
    prices: data.prices ?? null,
    autoUpdate: data.autoUpdate ?? true,
    warnings,
    object,
  };
}

function unusable(file: string, problem: string): SettingsReading {
  return reading(file, problem, {}, [], {});
}

/** One warning per field (the first thing wrong with it, and how many entries of a list were), unknown top-level keys first. */
function warningsOf(file: string, issues: readonly z.core.$ZodIssue[]): SettingsWarning[] {
  const top: SettingsWarning[] = [];
  const found: Array<SettingsWarning[] | { issue: z.core.$ZodIssue; field: string; count: number }> = [];
  const byField = new Map<string, { issue: z.core.$ZodIssue; field: string; count: number }>();
  for (const issue of issues) {
    if (isProviderField(issue.path[0])) continue;
    if (issue.code === 'unrecognized_keys') {
      if (issue.path.length === 0) top.push({ section: 'file', text: unknownTopKeys(file, issue.keys) });
      else found.push(unknownKeys(file, issue.path, issue.keys));
      continue;
    }
    const field = issueField(issue.path);
    const known = byField.get(field);
    if (known) known.count++;
    else {
      const entry = { issue, field, count: 1 };
      byField.set(field, entry);
      found.push(entry);
    }
  }
  const values = found.flatMap((entry) =>
    Array.isArray(entry)
      ? entry
      : [
          {
            section: entry.issue.path[0] as SettingsSection,
            text:
              `${file}: "${entry.field}" ${entry.issue.message} (got ${previewValue(entry.issue.input)}); ` +
              consequence(entry.issue.path, entry.count),
          },
        ],
  );
  return [...top, ...values];
}

/** What happens instead of the bad value: its default, nothing, or the list without that entry. */
function consequence(at: readonly PropertyKey[], count: number): string {
  if (at[0] === 'limits') {
    const field = at[1] as keyof RuntimeLimits | undefined;
    if (field === undefined) return 'the default limits apply';
    const value = DEFAULT_LIMITS[field];
    return `the default ${LIMIT_RULES[field].unit === 'bytes' ? `${value} (${formatBytes(value, true)})` : `${value} s`} applies`;
  }
  if (typeof at.at(-1) !== 'number') return 'it is ignored';
  return count > 1 ? `that entry and ${count - 1} more are ignored` : 'that entry is ignored';
}

// The old wording: `settings.json: unknown keys "theme", "modle" ignored`.
function unknownTopKeys(file: string, keys: readonly string[]): string {
  const shown = keys.slice(0, KEYS_LISTED).map((key) => JSON.stringify(shownKey(key)));
  const more = keys.length > KEYS_LISTED ? ` and ${keys.length - KEYS_LISTED} more` : '';
  return `${file}: unknown key${keys.length > 1 ? 's' : ''} ${shown.join(', ')}${more} ignored`;
}

function unknownKeys(file: string, at: readonly PropertyKey[], keys: readonly string[]): SettingsWarning[] {
  const section = at[0] as SettingsSection;
  const block = issueField(at);
  const warnings = keys
    .slice(0, KEYS_LISTED)
    .map((key) => ({ section, text: `${file}: unknown key "${block}.${shownKey(key)}" is ignored` }));
  if (keys.length > KEYS_LISTED) {
    const more = keys.length - KEYS_LISTED;
    warnings.push({ section, text: `${file}: ${more} more unknown keys in "${block}" are ignored` });
  }
  return warnings;
}

function shownKey(key: string): string {
  return key.length > KEY_SHOWN ? `${key.slice(0, KEY_SHOWN)}…` : key;
}

/**
 * A copy of `raw` without what the issues point at: the bad values, the unknown keys, the bad entries of a list.
 * Only the objects on the way to an issue are copied, once each; the paths are the schema's, a few levels at most.
 */
function withoutIssues(
  raw: Record<string, unknown>,
  issues: readonly z.core.$ZodIssue[],
): Record<string, unknown> {
  const top: Record<PropertyKey, unknown> = { ...raw };
  const copies = new Map<string, Record<PropertyKey, unknown>>([['[]', top]]);
  const dropped = new Map<unknown[], Set<number>>();
  const containerAt = (at: readonly PropertyKey[]): Record<PropertyKey, unknown> | null => {
    let node = top;
    for (let depth = 1; depth <= at.length; depth++) {
      const key = JSON.stringify(at.slice(0, depth).map(String));
      let copy = copies.get(key);
      if (!copy) {
        const original = node[at[depth - 1] as PropertyKey];
        if (typeof original !== 'object' || original === null) return null;
        copy = (Array.isArray(original) ? [...original] : { ...original }) as Record<PropertyKey, unknown>;
        node[at[depth - 1] as PropertyKey] = copy;
        copies.set(key, copy);
      }
      node = copy;
    }
    return node;
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const node = containerAt(issue.path);
      for (const key of issue.keys) if (node) delete node[key];
      continue;
    }
    const last = issue.path.at(-1);
    const node = last === undefined ? null : containerAt(issue.path.slice(0, -1));
    if (!node || last === undefined) continue;
    if (Array.isArray(node) && typeof last === 'number') {
      const indexes = dropped.get(node) ?? new Set<number>();
      dropped.set(node, indexes.add(last));
    } else delete node[last];
  }
  for (const [list, indexes] of dropped) {
    let kept = 0;
    for (let i = 0; i < list.length; i++) if (!indexes.has(i)) list[kept++] = list[i];
    list.length = kept;
  }
  return top;
}

function isProviderField(key: PropertyKey | undefined): boolean {
  return (PROVIDER_FIELDS as readonly PropertyKey[]).includes(key as PropertyKey);
}
