// Builds the renderer once before the suites (the web host serves dist/renderer) and checks Chromium is there.
import fs from 'node:fs';
import { ensureRenderer } from '../../main/web/renderer-build';
import { CHROMIUM_PATH } from './chromium';

/** Playwright's global setup. */
export default async function globalSetup(): Promise<void> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: apt-get install -y chromium (never npx playwright install)`,
    );
  }
  await ensureRenderer({ rebuild: true, log: (line) => process.stderr.write(`${line}\n`) });
}
