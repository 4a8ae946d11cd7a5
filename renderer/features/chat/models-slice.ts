// The provider's model list for the chat header's model picker: asked of main once per provider (its address and
// key name), kept for the session and across reloads (localStorage), refreshed on request. Setting a chat's model
// goes through main, which keeps it with the chat.
import type { SettingsView } from '../../../preload/contract';
import { invoke } from '../../boot/bridge';
import { t } from '../../i18n/i18n';
import { readPreference, writePreference } from '../../i18n/preference-storage';
import type { SliceCreator } from '../../store/app-state';

/** The cached list of one provider. */
export interface ModelList {
  /** Which provider it is of (kind, address, key name). */
  key: string;
  models: string[];
  fetchedAt: number;
}

/** The model picker's state. */
export interface ModelsSlice {
  modelList: ModelList | null;
  modelsLoading: boolean;
  modelsError: string | null;
  /** Loads the list of the settings' provider: from the cache unless `refresh`, else from the server. */
  loadModels(refresh?: boolean): Promise<void>;
  /** Sets the model of a chat's next turns (null: the settings' model). */
  setChatModel(chatId: string, model: string | null): Promise<void>;
}

const STORAGE_KEY = 'agenvoy.models';
// A list this old is asked for again on the next load; Refresh asks at once.
const FRESH_MS = 24 * 60 * 60 * 1000;
const MAX_CACHED_MODELS = 2000;

/** Which provider a list belongs to. */
export function providerKey(settings: Pick<SettingsView, 'provider' | 'baseUrl' | 'apiKeyName'>): string {
  return JSON.stringify([settings.provider, settings.baseUrl, settings.apiKeyName]);
}

// The stored list, if it is well formed (localStorage is this window's, but still parsed, never trusted).
function storedList(): ModelList | null {
  try {
    const value: unknown = JSON.parse(readPreference(STORAGE_KEY) ?? 'null');
    if (!value || typeof value !== 'object') return null;
    const { key, models, fetchedAt } = value as Record<string, unknown>;
    if (typeof key !== 'string' || typeof fetchedAt !== 'number' || !Array.isArray(models)) return null;
    if (!models.every((m) => typeof m === 'string')) return null;
    return { key, models: (models as string[]).slice(0, MAX_CACHED_MODELS), fetchedAt };
  } catch {
    return null;
  }
}

/** Creates the models slice. */
export const createModelsSlice: SliceCreator<ModelsSlice> = (set, get) => ({
  modelList: storedList(),
  modelsLoading: false,
  modelsError: null,
  async loadModels(refresh = false) {
    const settings = get().settings;
    if (!settings || get().modelsLoading) return;
    const key = providerKey(settings);
    const cached = get().modelList;
    if (!refresh && cached?.key === key && Date.now() - cached.fetchedAt < FRESH_MS) return;
    set({ modelsLoading: true, modelsError: null });
    const result = await invoke('provider.models', {
      provider: settings.provider,
      baseUrl: settings.baseUrl,
      apiKeyName: settings.apiKeyName,
    });
    if (!result.ok) return set({ modelsLoading: false, modelsError: result.error.message });
    const list = { key, models: result.value.models.slice(0, MAX_CACHED_MODELS), fetchedAt: Date.now() };
    writePreference(STORAGE_KEY, JSON.stringify(list));
    set({ modelList: list, modelsLoading: false });
  },
  async setChatModel(chatId, model) {
    const result = await invoke('chats.setModel', { chatId, model });
    if (result.ok) get().chatChanged(chatId, result.value);
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.modelNotChanged'), message: result.error.message }),
      );
  },
});
