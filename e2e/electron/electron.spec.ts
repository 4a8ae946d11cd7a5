// The desktop app itself through Playwright's _electron: chat window, approval and secret prompts in their own
// modal windows. Runs where an Electron binary is installed; here (ELECTRON_SKIP_BINARY_DOWNLOAD) it skips.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { ElectronApplication, Page } from '@playwright/test';
import { _electron as electron, expect, test } from '@playwright/test';
// eslint-disable-next-line no-restricted-imports -- a plain-Node module (no electron import): finding the binary must not load electron
import { findElectronBinary } from '../../main/electron/electron-binary';
import { startOpenAiTestServer } from '../../main/agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../../main/agent/providers/testing/scripted-server';
import { callTool, loadTools, say } from '../support/model-script';
import { canaryTool } from '../support/script-tools';

const binary = findElectronBinary(electronPackageDir());
test.skip(binary.kind === 'missing', `no Electron binary: ${binary.kind === 'missing' ? binary.reason : ''}`);

let model: ScriptedServer;
let home: string;
let app: ElectronApplication;

test.beforeEach(async () => {
  model = await startOpenAiTestServer();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-electron-'));
  fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'desktop', 'settings.json'),
    JSON.stringify({
      provider: 'openai',
      baseUrl: model.baseUrl,
      model: 'test-model',
      apiKeyName: null,
      defaultWorkspace: home,
    }),
  );
  canaryTool(home);
  const { buildElectron, ROOT } = await import('../../build/build-electron');
  await buildElectron();
  const env = { ...process.env, AGENVOY_HOME: home } as Record<string, string>;
  delete env.DBUS_SESSION_BUS_ADDRESS;
  app = await electron.launch({
    executablePath: binary.kind === 'found' ? binary.path : '',
    args: [ROOT],
    env,
  });
});

test.afterEach(async () => {
  await app?.close();
  await model?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

test('chat → approval window → Allow once → the card runs and the answer streams', async () => {
  model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command: 'echo from-electron' }),
    say('Echoed in Electron.'),
  );
  const window = await app.firstWindow();
  await window.getByRole('button', { name: 'New chat', exact: true }).click();
  await window.getByLabel('Message', { exact: true }).fill('Echo it');
  const dialogWindow = app.waitForEvent('window');
  await window.getByRole('button', { name: 'Send' }).click();
  const approval = await dialogWindow;
  await expect(approval.getByRole('dialog').getByLabel('Arguments', { exact: true })).toContainText(
    'echo from-electron',
  );
  // The chat window cannot approve by itself: it has no dialog of its own; its title counts what waits.
  await expect(window.getByRole('dialog')).toHaveCount(0);
  const titles = () =>
    app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((w) => w.getTitle()));
  await expect.poll(titles).toContain('(1) Agenvoy');
  await approval.getByRole('button', { name: 'Allow once' }).click();
  await expect.poll(titles).toContain('Agenvoy');
  await expect(callCard(window, 'run_command')).toHaveAttribute('data-state', 'ok');
  await expect(window.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'Echoed in Electron.',
  );
});

test('a missing key opens the secret window; Save stores it and the call is retried', async () => {
  const canary = 'electron-canary-3f9a1c';
  model.enqueue(loadTools('script_read_canary'), callTool('script_read_canary', {}), say('Key works.'));
  const window = await app.firstWindow();
  await window.getByRole('button', { name: 'New chat', exact: true }).click();
  await window.getByLabel('Message', { exact: true }).fill('Check the key');
  const secretWindow = app.waitForEvent('window');
  await window.getByRole('button', { name: 'Send' }).click();
  const prompt = await secretWindow;
  await prompt.getByRole('dialog').getByLabel('CANARY_KEY').fill(canary);
  await prompt.getByRole('button', { name: 'Save' }).click();
  await expect(callCard(window, 'script_read_canary')).toHaveAttribute('data-state', 'ok');
  const state = await window.evaluate(() =>
    JSON.stringify((window as unknown as { __zustand: { getState(): unknown } }).__zustand.getState()),
  );
  expect(state).not.toContain(canary);
  expect(await window.content()).not.toContain(canary);
});

function callCard(page: Page, tool: string) {
  return page.getByRole('group', { name: `Tool call ${tool}` }).first();
}

function electronPackageDir(): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}
