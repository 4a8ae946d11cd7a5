// Settings (provider, model, base URL, key name, default workspace), the OS sandbox's state and the stored key
// names; never a value.
import type { SandboxStatusView, SecretsView, SettingsInput, SettingsView } from '../../preload/contract';
import type { SliceCreator } from './app-state';
import { invoke } from './bridge';
import { sendConfirmingHome } from './confirm-home';

/** The settings screen's state. */
export interface SettingsSlice {
  settings: SettingsView | null;
  secrets: SecretsView | null;
  settingsSaving: boolean;
  /** Whether commands and script tools run in the OS sandbox here (docs/security.md); null until loaded. */
  sandbox: SandboxStatusView | null;
  loadSettings(): Promise<void>;
  loadSandbox(): Promise<void>;
  /** Saves (asking the person first when the default workspace is the home folder); resolves to the validation message when main refused, else null. */
  saveSettings(input: SettingsInput): Promise<string | null>;
  loadSecrets(): Promise<void>;
  /** Asks main to open the masked prompt for `key`; the value goes from that dialog to main, never through here. */
  promptSecret(key: string, question?: string): Promise<void>;
}

/** Creates the settings slice. */
export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get) => ({
  settings: null,
  secrets: null,
  settingsSaving: false,
  sandbox: null,
  async loadSandbox() {
    const result = await invoke('sandbox.status', {});
    if (result.ok) set({ sandbox: result.value });
    else get().pushNotice('error', `Could not read the sandbox's state: ${result.error.message}`);
  },
  async loadSettings() {
    const result = await invoke('settings.get', {});
    if (result.ok) set({ settings: result.value });
    else get().pushNotice('error', `Could not load settings: ${result.error.message}`);
  },
  async saveSettings(input) {
    set({ settingsSaving: true });
    const result = await sendConfirmingHome((confirmHome) =>
      invoke('settings.save', confirmHome ? { ...input, confirmHome } : input),
    );
    set({ settingsSaving: false });
    if (!result)
      return 'Not saved: pick a project folder, or leave it empty for a folder of its own per chat.';
    if (!result.ok) return result.error.message;
    set({ settings: result.value });
    get().pushNotice('info', 'Settings saved.');
    return null;
  },
  async loadSecrets() {
    const result = await invoke('secrets.list', {});
    if (result.ok) set({ secrets: result.value });
    else get().pushNotice('error', `Could not list secrets: ${result.error.message}`);
  },
  async promptSecret(key, question) {
    const result = await invoke('secrets.prompt', question ? { key, question } : { key });
    if (!result.ok) return get().pushNotice('error', `Could not ask for ${key}: ${result.error.message}`);
    if (result.value.stored) await get().loadSecrets();
  },
});
