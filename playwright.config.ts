// Playwright: browser mode end to end in Debian's Chromium (never a downloaded browser), one test at a time.
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/support/chromium';

/** The e2e suites: e2e/*.spec.ts in browser mode, e2e/electron/*.spec.ts where an Electron binary exists. */
export default defineConfig({
  testDir: './e2e',
  testMatch: ['*.spec.ts', 'electron/*.spec.ts'],
  globalSetup: './e2e/support/global-setup.ts',
  outputDir: './test-results',
  // Each test runs its own core and model server; the machines have two cores.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'off',
    video: 'off',
  },
});
