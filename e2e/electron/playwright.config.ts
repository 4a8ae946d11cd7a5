// Playwright for the _electron suite alone, as CI runs it against a packaged app on Linux, macOS and Windows
// (AGENVOY_E2E_APP): no browser and no renderer build needed, so none of the browser suites' global setup.
import { defineConfig } from '@playwright/test';

/** The desktop app's end-to-end suite. */
export default defineConfig({
  testDir: '.',
  testMatch: ['*.spec.ts'],
  outputDir: '../../test-results/electron',
  workers: 1,
  fullyParallel: false,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list']],
});
