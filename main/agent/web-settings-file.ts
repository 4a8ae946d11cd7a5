// The `web` block of settings.json for the web tools (see tools/sdk/web/web-settings.ts for its keys).
import fs from 'node:fs';
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import { parseWebSettings } from '../../tools/sdk/web/web-settings';

/** Reads settings.json's `web` block; a missing or unreadable file means the defaults (nothing private allowed). */
export function readWebSettings(settingsFile: string): WebSettings {
  try {
    const raw = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as { web?: unknown };
    return parseWebSettings(raw?.web);
  } catch {
    return parseWebSettings(undefined);
  }
}
