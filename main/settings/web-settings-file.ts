// The `web` block of settings.json for the web tools (see tools/sdk/web/web-settings.ts for its keys and defaults).
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import { readSettings } from './settings-file';

/** Reads settings.json's `web` block; a missing or unreadable file means the defaults (nothing private allowed). */
export function readWebSettings(settingsFile: string): WebSettings {
  return readSettings(settingsFile).web;
}
