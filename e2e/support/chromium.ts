// How the tests and the UI bench launch Chromium: Debian's binary, headless, no network chatter (docs/hosts.md, "Building and testing on these machines").
import type { LaunchOptions } from '@playwright/test';

/** Debian's Chromium; Playwright's own browser downloads are not available here. */
export const CHROMIUM_PATH = process.env.AGENVOY_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Launch options for Debian's Chromium. Playwright gives every non-persistent launch its own temporary
 * --user-data-dir (and refuses one in `args`), so each run starts from a throwaway profile.
 */
export function chromiumLaunchOptions(): LaunchOptions {
  return {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  };
}
