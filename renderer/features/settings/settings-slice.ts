// Settings (provider, model, base URL, key name, default workspace) and the OS sandbox's state. The stored key
// names are the secrets slice's (features/secrets/secrets-slice.ts).
import type { SandboxStatusView, SettingsInput, SettingsView } from '../../../preload/contract';
import { invoke } from '../../boot/bridge';
import type { SliceCreator } from '../../store/app-state';
import { sendConfirmingHome } from '../../store/confirm-home';
import { t } from '../../i18n/i18n';

/** The settings screen's state. */
export interface SettingsSlice {
  settings: SettingsView | null;
  settingsSaving: boolean;
  /** Whether commands and script tools run in the OS sandbox here (docs/security.md); null until loaded. */
  sandbox: SandboxStatusView | null;
  loadSettings(): Promise<void>;
  loadSandbox(): Promise<void>;
  /** Saves (asking the person first when the default workspace is the home folder); resolves to the validation message when main refused, else null. */
  saveSettings(input: SettingsInput): Promise<string | null>;
}

/** Creates the settings slice. */
export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get) => ({
  settings: null,
  settingsSaving: false,
  sandbox: null,
  async loadSandbox() {
    const result = await invoke('sandbox.status', {});
    if (result.ok) set({ sandbox: result.value });
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.sandboxState'), message: result.error.message }),
      );
  },
  async loadSettings() {
    const result = await invoke('settings.get', {});
    if (result.ok) set({ settings: result.value });
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.loadSettings'), message: result.error.message }),
      );
  },
  async saveSettings(input) {
    set({ settingsSaving: true });
    const result = await sendConfirmingHome((confirmHome) =>
      invoke('settings.save', confirmHome ? { ...input, confirmHome } : input),
    );
    set({ settingsSaving: false });
    if (!result) return t('notices.notSavedHome');
    if (!result.ok) return result.error.message;
    set({ settings: result.value });
    get().pushNotice('info', t('notices.settingsSaved'));
    return null;
  },
});
