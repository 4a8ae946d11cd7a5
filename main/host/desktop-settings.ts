// The settings screen over settings.json: the provider fields of docs/agent-loop.md ("Provider settings") plus this app's default workspace.
import fs from 'node:fs';
import path from 'node:path';
import type { SettingsInput, SettingsView } from '../../preload/contract';
import type { SettingsLayer } from '../settings/settings';
import type { ProviderSettings } from '../settings/settings';
import {
  loadSettings,
  loadSettingsDraft,
  readSettingsFile,
  resolveSettings,
  settingsFromEnv,
  PROVIDER_DEFAULTS,
  PROVIDER_KINDS,
  PROVIDER_LABELS,
  providerChosen,
  saveSettings,
  SettingsError,
  settingsPath,
} from '../settings/settings';
import { readSettings } from '../settings/settings-file';
import type { z } from 'zod';
import { priceTable } from '../settings/model-prices';
import { PROVIDER_FIELDS, providerLayerSchema, settingsSchema } from '../settings/settings-schema';
import { chatsRoot, isHomeFolder } from './chat-folders';
import { HostError } from './host-error';
import { optionalString, requestObject } from './request-fields';

/** Where settings live and what overrides them. */
export interface SettingsPlace {
  home: string;
  env: NodeJS.ProcessEnv;
  /** The default workspace when settings.json names none (`agenvoy web --workspace`); null: each chat its own folder. */
  fallbackWorkspace: string | null;
}

/** The settings as the screen shows them; a broken file is reported as invalid_settings. */
export function readSettingsView(place: SettingsPlace): SettingsView {
  let settings;
  try {
    settings = loadSettingsDraft({ home: place.home, env: place.env });
  } catch (error) {
    if (error instanceof SettingsError) throw new HostError('invalid_settings', error.message);
    throw error;
  }
  let problem: string | null = null;
  try {
    loadSettings({ home: place.home, env: place.env });
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    problem = error.message;
  }
  const file = readSettings(settingsPath(place.home));
  const overridden: SettingsView['overridden'] = [];
  if (place.env.AGENVOY_PROVIDER) overridden.push('provider');
  if (place.env.AGENVOY_BASE_URL) overridden.push('baseUrl');
  if (place.env.AGENVOY_MODEL) overridden.push('model');
  return {
    ...settings,
    defaultWorkspace: defaultWorkspace(place) ?? '',
    chatsFolder: chatsRoot(place.env),
    providers: [...PROVIDER_KINDS],
    presets: PROVIDER_KINDS.map((kind) => ({
      kind,
      label: PROVIDER_LABELS[kind],
      ...PROVIDER_DEFAULTS[kind],
    })),
    configured: providerChosen({ home: place.home, env: place.env }),
    problem,
    reasoning: file.reasoning,
    thinkingBudgetTokens: file.thinkingBudgetTokens,
    prices: priceTable(file.prices),
    overridden,
  };
}

/**
 * The default workspace: settings.json's `defaultWorkspace` when it names a folder, else the host's fallback; null
 * when neither does, and each new chat gets a folder of its own (chat-folders.ts).
 */
export function defaultWorkspace(place: SettingsPlace): string | null {
  // Missing, broken or not an absolute path: the workspace falls back (loadSettings reports a broken file).
  return readSettings(settingsPath(place.home)).defaultWorkspace ?? place.fallbackWorkspace;
}

/**
 * The core's own workspace in a desktop host (where workspace tools are found, where MCP servers start): the default
 * workspace when there is one, else ~/Agenvoy (created); never the home folder itself (docs/security.md).
 */
export async function coreWorkspace(place: SettingsPlace): Promise<string> {
  const chosen = defaultWorkspace(place);
  if (chosen !== null) {
    const stat = await fs.promises.stat(chosen).catch(() => null);
    if (stat?.isDirectory() && !(await isHomeFolder(chosen, place.env))) return path.resolve(chosen);
  }
  const root = chatsRoot(place.env);
  await fs.promises.mkdir(root, { recursive: true });
  return root;
}

/**
 * Validates and saves the screen's changes; fields left out are kept. When the result would send a stored key to an
 * address it was not sent to before, `confirmKey` must agree first (key-destination.ts).
 */
export async function saveSettingsInput(
  place: SettingsPlace,
  raw: unknown,
  confirmKey?: (keyName: string | null, baseUrl: string) => Promise<boolean>,
): Promise<SettingsView> {
  const fields = requestObject(raw);
  const layer: SettingsLayer & Record<string, unknown> = { ...usageFields(fields) };
  const provider = optionalString(fields, 'provider', 32);
  if (provider !== undefined) layer.provider = provider as SettingsInput['provider'];
  const baseUrl = optionalString(fields, 'baseUrl', 2000);
  if (baseUrl !== undefined) layer.baseUrl = baseUrl.trim();
  const model = optionalString(fields, 'model', 200);
  if (model !== undefined) layer.model = model.trim();
  if ('apiKeyName' in fields) {
    const key = fields.apiKeyName;
    if (key !== null && typeof key !== 'string')
      throw new HostError('invalid_settings', '"apiKeyName" must be a key name or null');
    layer.apiKeyName = key === null || key.trim() === '' ? null : key.trim();
  }
  const workspace = optionalString(fields, 'defaultWorkspace', 4096);
  // '' goes back to a folder of its own per chat: the key is removed from the file.
  if (workspace !== undefined)
    layer.defaultWorkspace =
      workspace.trim() === ''
        ? undefined
        : await chosenFolder(workspace, 'defaultWorkspace', confirmsHome(fields), place.env);
  if (confirmKey) {
    const after = settingsAfterSave(place, layer);
    if (after && !(await confirmKey(after.apiKeyName, after.baseUrl))) {
      throw new HostError(
        'declined',
        `settings not saved: you did not confirm sending ${after.apiKeyName} to ${after.baseUrl}`,
      );
    }
  }
  try {
    // Unknown fields pass through saveSettings untouched, so the default workspace is kept in the same file.
    await saveSettings(layer, { home: place.home });
  } catch (error) {
    if (error instanceof SettingsError) throw new HostError('invalid_settings', error.message);
    throw error;
  }
  return readSettingsView(place);
}

/**
 * The reasoning level, thinking budget and price table a save changes, checked with settings.json's own schema. A saved
 * table is the table from then on; null for the budget or the table removes the key (the level's own budget, the
 * shipped prices).
 */
function usageFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const check = <T>(name: string, schema: z.ZodType<T>, value: unknown): T => {
    const checked = schema.safeParse(value);
    if (checked.success) return checked.data;
    const issue = checked.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${name}.${issue.path.join('.')}` : name;
    throw new HostError('invalid_settings', `"${where}" ${issue?.message ?? 'is not valid'}`);
  };
  const shape = settingsSchema.shape;
  if (fields.reasoning !== undefined) out.reasoning = check('reasoning', shape.reasoning, fields.reasoning);
  if ('thinkingBudgetTokens' in fields) {
    const budget = fields.thinkingBudgetTokens;
    out.thinkingBudgetTokens =
      budget === null ? undefined : check('thinkingBudgetTokens', shape.thinkingBudgetTokens, budget);
  }
  // null goes back to the shipped table: the key is removed from the file.
  if (fields.prices === null) out.prices = undefined;
  else if (fields.prices !== undefined) {
    const table = check('prices', shape.prices, fields.prices) ?? [];
    const models = new Set<string>();
    for (const row of table) {
      if (models.has(row.model))
        throw new HostError('invalid_settings', `"prices": ${row.model} is listed twice`);
      models.add(row.model);
    }
    out.prices = table;
  }
  return out;
}

/** The provider settings in force once `layer` is saved; null when the result does not validate (saving then says why). */
function settingsAfterSave(place: SettingsPlace, layer: SettingsLayer): ProviderSettings | null {
  try {
    const file = readSettingsFile(settingsPath(place.home));
    const merged = { ...file };
    for (const field of PROVIDER_FIELDS) if (field in layer) Object.assign(merged, { [field]: layer[field] });
    const checked = providerLayerSchema.safeParse(merged);
    if (!checked.success) return null;
    return resolveSettings([checked.data, settingsFromEnv(place.env)]);
  } catch (error) {
    if (error instanceof SettingsError) return null;
    throw error;
  }
}

/**
 * A folder a person chose as a workspace: an existing absolute folder, and the home folder itself only when the
 * request confirms it (`confirmHome: true`), because then every file of the person counts as inside the workspace.
 */
export async function chosenFolder(
  value: string,
  field: string,
  confirmHome: boolean,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const folder = await existingFolder(value, field);
  if (!confirmHome && (await isHomeFolder(folder, env))) {
    throw new HostError(
      'confirm_required',
      `"${field}": ${folder} is your whole home folder, so every file of yours would count as inside the ` +
        'workspace; confirm to use it anyway (confirmHome: true), or pick a project folder',
    );
  }
  return folder;
}

/** The request's `confirmHome`: true only when it is exactly true. */
export function confirmsHome(fields: Record<string, unknown>): boolean {
  const value = fields.confirmHome;
  if (value !== undefined && value !== null && typeof value !== 'boolean')
    throw new HostError('invalid_request', '"confirmHome" must be true or false');
  return value === true;
}

/** An absolute path to an existing folder, or an error naming the field. */
export async function existingFolder(value: string, field: string): Promise<string> {
  const folder = value.trim();
  if (!path.isAbsolute(folder)) throw new HostError('invalid_request', `"${field}" must be an absolute path`);
  const stat = await fs.promises.stat(folder).catch(() => null);
  if (!stat?.isDirectory()) throw new HostError('invalid_request', `"${field}": ${folder} is not a folder`);
  return path.resolve(folder);
}
