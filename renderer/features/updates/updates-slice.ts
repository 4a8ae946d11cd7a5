// The desktop app's updates as the window shows them (docs/release.md, "Updates"): main decides when to check and
// whether a restart may be offered; the window only shows it and asks.
import type { UpdateView } from '../../../preload/contract';
import { invoke } from '../../boot/bridge';
import type { SliceCreator } from '../../store/app-state';

/** The updates' state. */
export interface UpdatesSlice {
  /** null until loaded. */
  updates: UpdateView | null;
  loadUpdates(): Promise<void>;
  /** main's `updates.changed` event. */
  updatesChanged(view: UpdateView): void;
  /** "Restart to update": main refuses (and says why) while a turn or task runs. */
  restartToUpdate(): Promise<void>;
  setUpdatesEnabled(enabled: boolean): Promise<void>;
}

/** Creates the updates slice. */
export const createUpdatesSlice: SliceCreator<UpdatesSlice> = (set, get) => ({
  updates: null,
  async loadUpdates() {
    const result = await invoke('updates.status', {});
    if (result.ok) set({ updates: result.value });
  },
  updatesChanged(view) {
    set({ updates: view });
  },
  async restartToUpdate() {
    const result = await invoke('updates.restart', {});
    if (!result.ok) get().pushNotice('error', `Could not restart: ${result.error.message}`);
    else if (!result.value.restarting) get().pushNotice('info', `Not restarting: ${result.value.reason}.`);
  },
  async setUpdatesEnabled(enabled) {
    const result = await invoke('updates.setEnabled', { enabled });
    if (result.ok) set({ updates: result.value });
    else get().pushNotice('error', `Could not save: ${result.error.message}`);
  },
});
