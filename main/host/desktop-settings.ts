// The settings screen over settings.json: the provider fields of SPEC §7 plus this app's default workspace.
import fs from 'node:fs';
import path from 'node:path';
import type { SettingsInput, SettingsView } from '../../preload/contract';
import type { SettingsLayer } from '../agent/settings';
import { loadSettings, PROVIDER_KINDS, saveSettings, SettingsError, settingsPath } from '../agent/settings';
import { HostError } from './host-error';
import { optionalString, requestObject } from './request-fields';

/** Where settings live and what overrides them. */
export interface SettingsPlace {
  home: string;
  env: NodeJS.ProcessEnv;
  /** The default workspace when settings.json names none (the host's --workspace or start folder). */
  fallbackWorkspace: string;
}

/** The settings as the screen shows them; a broken file is reported as invalid_settings. */
export function readSettingsView(place: SettingsPlace): SettingsView {
  let settings;
  try {
    settings = loadSettings({ home: place.home, env: place.env });
  } catch (error) {
    if (error instanceof SettingsError) throw new HostError('invalid_settings', error.message);
    throw error;
  }
  const overridden: SettingsView['overridden'] = [];
  if (place.env.AGENVOY_PROVIDER) overridden.push('provider');
  if (place.env.AGENVOY_BASE_URL) overridden.push('baseUrl');
  if (place.env.AGENVOY_MODEL) overridden.push('model');
  return {
    ...settings,
    defaultWorkspace: defaultWorkspace(place),
    providers: [...PROVIDER_KINDS],
    overridden,
  };
}

/** The default workspace: settings.json's `defaultWorkspace` when it names a folder, else the host's fallback. */
export function defaultWorkspace(place: SettingsPlace): string {
  try {
    const raw: unknown = JSON.parse(fs.readFileSync(settingsPath(place.home), 'utf8'));
    const value = (raw as { defaultWorkspace?: unknown } | null)?.defaultWorkspace;
    if (typeof value === 'string' && path.isAbsolute(value)) return value;
  } catch {
    // Missing or broken: loadSettings reports a broken file; the workspace falls back.
  }
  return place.fallbackWorkspace;
}

/** Validates and saves the screen's changes; fields left out are kept. */
export async function saveSettingsInput(place: SettingsPlace, raw: unknown): Promise<SettingsView> {
  const fields = requestObject(raw);
  const layer: SettingsLayer & { defaultWorkspace?: string } = {};
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
  if (workspace !== undefined) layer.defaultWorkspace = await existingFolder(workspace, 'defaultWorkspace');
  try {
    // Unknown fields pass through saveSettings untouched, so the default workspace is kept in the same file.
    await saveSettings(layer, { home: place.home });
  } catch (error) {
    if (error instanceof SettingsError) throw new HostError('invalid_settings', error.message);
    throw error;
  }
  return readSettingsView(place);
}

/** An absolute path to an existing folder, or an error naming the field. */
export async function existingFolder(value: string, field: string): Promise<string> {
  const folder = value.trim();
  if (!path.isAbsolute(folder)) throw new HostError('invalid_request', `"${field}" must be an absolute path`);
  const stat = await fs.promises.stat(folder).catch(() => null);
  if (!stat?.isDirectory()) throw new HostError('invalid_request', `"${field}": ${folder} is not a folder`);
  return path.resolve(folder);
}
