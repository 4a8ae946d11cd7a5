// The desktop app itself through Playwright's _electron: chat window, approval and secret prompts in their own
// modal windows, quitting with a running task. Runs where an Electron binary is installed; here
// (ELECTRON_SKIP_BINARY_DOWNLOAD) it skips. With AGENVOY_E2E_APP set to a packaged app's executable (CI builds one
// with electron-builder --dir), it runs against that build instead of the sources.
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

const packagedApp = process.env.AGENVOY_E2E_APP;
const binary = packagedApp
  ? fs.existsSync(packagedApp)
    ? ({ kind: 'found', path: packagedApp } as const)
    : ({ kind: 'missing', reason: `AGENVOY_E2E_APP=${packagedApp} does not exist` } as const)
  : findElectronBinary(electronPackageDir());
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
      // A packaged build carries the real feed: the suite stays off the network.
      autoUpdate: false,
    }),
  );
  canaryTool(home);
  let args: string[] = [];
  if (!packagedApp) {
    const { buildElectron, ROOT } = await import('../../build/build-electron');
    await buildElectron();
    args = [ROOT];
  }
  const env = { ...process.env, AGENVOY_HOME: home } as Record<string, string>;
  delete env.DBUS_SESSION_BUS_ADDRESS;
  app = await electron.launch({
    executablePath: binary.kind === 'found' ? binary.path : '',
    args,
    env,
  });
});

test.afterEach(async () => {
  await app?.close().catch(() => {});
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

test('quitting with a running task asks first, then kills its whole process tree', async () => {
  test.skip(process.platform === 'win32', 'the ticker is a POSIX shell loop');
  const tick = path.join(home, 'tick');
  // The task's shell starts a child that counts into a file every 100 ms: it stops only if the whole tree dies.
  model.enqueue(
    loadTools('background_command'),
    callTool('background_command', {
      command: `sh -c 'i=0; while true; do i=$((i+1)); echo $i > "${tick}"; sleep 0.1; done' & wait`,
      timeout_min: 5,
    }),
    say('Ticking in the background.'),
  );
  const window = await app.firstWindow();
  await window.getByRole('button', { name: 'New chat', exact: true }).click();
  await window.getByLabel('Message', { exact: true }).fill('Start the ticker');
  const dialogWindow = app.waitForEvent('window');
  await window.getByRole('button', { name: 'Send' }).click();
  await (await dialogWindow).getByRole('button', { name: 'Allow once' }).click();
  await expect(window.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'Ticking in the background.',
  );
  await expect.poll(() => fs.existsSync(tick)).toBe(true);

  const closed = app.waitForEvent('close');
  // The quit question is a native message box: answer it "Quit and cancel tasks" (button 0) and keep what it asked.
  const asked = await app.evaluate(({ app: electronApp, dialog }) => {
    let question: string | null = null;
    dialog.showMessageBoxSync = ((options: { message: string }) => {
      question = options.message;
      return 0;
    }) as typeof dialog.showMessageBoxSync;
    electronApp.quit();
    return question;
  });
  expect(asked).toBe('1 background task is still running. Quit anyway?');
  await closed;
  const last = fs.readFileSync(tick, 'utf8');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(fs.readFileSync(tick, 'utf8')).toBe(last);
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
