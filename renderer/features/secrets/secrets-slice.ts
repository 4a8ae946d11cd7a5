// The stored secrets: their key names, where they are kept and the active backend; never a value. A value is typed
// into main's masked prompt (secret-dialog.tsx) and goes from there to main, never through the store.
import type { SecretsView } from '../../../preload/contract';
import { invoke } from '../../boot/bridge';
import type { SliceCreator } from '../../store/app-state';
import { t } from '../../i18n/i18n';

/** The secrets section's state. */
export interface SecretsSlice {
  secrets: SecretsView | null;
  loadSecrets(): Promise<void>;
  /** Asks main to open the masked prompt for `key`; the value goes from that dialog to main, never through here. */
  promptSecret(key: string, question?: string): Promise<void>;
}

/** Creates the secrets slice. */
export const createSecretsSlice: SliceCreator<SecretsSlice> = (set, get) => ({
  secrets: null,
  async loadSecrets() {
    const result = await invoke('secrets.list', {});
    if (result.ok) set({ secrets: result.value });
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.listSecrets'), message: result.error.message }),
      );
  },
  async promptSecret(key, question) {
    const result = await invoke('secrets.prompt', question ? { key, question } : { key });
    if (!result.ok)
      return get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.askFor', { key }), message: result.error.message }),
      );
    if (result.value.stored) await get().loadSecrets();
  },
});
