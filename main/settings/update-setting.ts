// settings.json's `autoUpdate`: whether the desktop app checks for updates on start and daily and downloads them in
// the background (docs/release.md, "Updates"). Read through settings-file.ts like every other field.
import { readSettings } from './settings-file';
import { saveSettings, settingsPath } from './settings';

/** Whether updates are on; true when the file is missing, says nothing, or holds a bad value (warned about there). */
export function readAutoUpdate(home: string): boolean {
  return readSettings(settingsPath(home)).autoUpdate;
}

/** Turns updates on or off, keeping every other field of the file. */
export async function saveAutoUpdate(home: string, enabled: boolean): Promise<void> {
  await saveSettings({ autoUpdate: enabled } as Parameters<typeof saveSettings>[0], { home });
}
