// Credential auto-heal in browser mode: a tool needs a missing key → the masked prompt → Save → stored → the call
// is retried and succeeds; the value is nowhere in the page's state, the DOM, the database, the logs or the model.
import fs from 'node:fs';
import path from 'node:path';
import { callTool, loadTools, say, toolMessages } from './support/model-script';
import { canaryTool } from './support/script-tools';
import { card, expect, newChat, openApp, send, test } from './support/fixtures';

const CANARY = 'canary-5b8e0d7a-secret-value-9f1c';

test('a missing key is asked for in the masked prompt, stored, and the call retried', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch({ prepare: ({ home }) => canaryTool(home) });
  app.model.enqueue(
    loadTools('script_read_canary'),
    callTool('script_read_canary', {}),
    say('The canary key works.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Check the canary key');

  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('script_read_canary');
  const field = dialog.getByLabel('CANARY_KEY');
  await expect(field).toHaveAttribute('type', 'password');
  await field.fill(CANARY);
  await shot(page, 'secret-dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const canaryCard = card(page, 'script_read_canary');
  await expect(canaryCard).toHaveAttribute('data-state', 'ok', { timeout: 15_000 });
  await expect(canaryCard).toContainText(`canary key present, ${CANARY.length} characters`);
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'The canary key works.',
  );

  // Stored: the settings screen lists the key name (never a value).
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('list', { name: 'Stored keys' })).toContainText('CANARY_KEY');
  await shot(page, 'settings');

  // Nowhere in the page: the store, the DOM (the field was cleared), the model's requests.
  const state = await page.evaluate(() =>
    JSON.stringify((window as unknown as { __zustand: { getState(): unknown } }).__zustand.getState()),
  );
  expect(state).toContain('CANARY_KEY');
  expect(state).not.toContain(CANARY);
  expect(await page.content()).not.toContain(CANARY);
  expect(JSON.stringify(app.model.requests.map((r) => r.body))).not.toContain(CANARY);
  expect(toolMessages(app.model.requests[2]?.body).join('\n')).toContain('canary key present');
  // Nor on disk, except in the 0600 secrets file where it belongs (no keychain in this test).
  const files = [...app.databaseFiles(), ...app.logFiles()];
  expect(files.some((f) => f.endsWith('.db'))).toBe(true);
  for (const file of files) expect(fs.readFileSync(file).includes(CANARY), file).toBe(false);
  expect(app.output()).not.toContain(CANARY);
  const secretsFile = path.join(app.home, '.secrets');
  expect(fs.readFileSync(secretsFile, 'utf8')).toContain(`CANARY_KEY=${CANARY}`);
  expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
});

test('the secret prompt can be cancelled: the call fails and says why', async ({ page, launch }) => {
  const app = await launch({ prepare: ({ home }) => canaryTool(home) });
  app.model.enqueue(
    loadTools('script_read_canary'),
    callTool('script_read_canary', {}),
    say('No key, so I stopped.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Check the canary key');
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('CANARY_KEY').fill('typed but cancelled');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, 'script_read_canary')).toHaveAttribute('data-state', /error/);
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'No key, so I stopped.',
  );
  expect(await page.content()).not.toContain('typed but cancelled');
});
