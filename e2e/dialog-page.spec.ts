// The Electron shell's modal pages (dialog.html): loaded on their own and driven, like the shell's dialog windows.
import { callTool, loadTools, say, toolMessages } from './support/model-script';
import { canaryTool } from './support/script-tools';
import { card, expect, newChat, openApp, send, test } from './support/fixtures';

test('dialog.html shows the pending approval as a whole page and answers it', async ({
  page,
  context,
  launch,
  shot,
}) => {
  const app = await launch();
  app.model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command: 'echo from-the-dialog-page' }),
    say('Done.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Echo it');
  await expect(page.getByRole('dialog')).toBeVisible();

  const modal = await context.newPage();
  await modal.setViewportSize({ width: 640, height: 620 });
  await modal.goto(app.pageUrl('dialog.html'));
  const dialog = modal.getByRole('dialog');
  await expect(dialog.getByLabel('Arguments', { exact: true })).toContainText('echo from-the-dialog-page');
  // A whole window, not an in-page overlay; and the page has no chat around it.
  await expect(modal.locator('.dialog-backdrop')).toHaveCount(0);
  await expect(modal.getByLabel('Message')).toHaveCount(0);
  await shot(modal, 'dialog-window-approval');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(modal.getByRole('status')).toHaveText('Nothing to answer.');

  // The chat window's in-page copy closes too, and the call runs.
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(card(page, 'run_command')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Done.');
});

test('dialog.html takes a secret and a question', async ({ page, context, launch }) => {
  const app = await launch({ prepare: ({ home }) => canaryTool(home) });
  app.model.enqueue(
    loadTools('script_read_canary'),
    callTool('script_read_canary', {}),
    callTool('ask_user', { questions: [{ prompt: 'Ship it?', kind: 'single', options: ['yes', 'no'] }] }),
    say('Shipping.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Check and ask');
  await expect(page.getByRole('dialog')).toBeVisible();

  const modal = await context.newPage();
  await modal.goto(app.pageUrl('dialog.html'));
  await modal.getByRole('dialog').getByLabel('CANARY_KEY').fill('dialog-page-canary-value');
  await modal.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(card(page, 'script_read_canary')).toHaveAttribute('data-state', 'ok');

  await modal.reload();
  await modal.getByRole('dialog').getByLabel('yes').check();
  await modal.getByRole('dialog').getByRole('button', { name: 'Answer' }).click();
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Shipping.');
  expect(toolMessages(app.model.requests[3]?.body).join('\n')).toContain('yes');
  const state = await modal.evaluate(() =>
    JSON.stringify((window as unknown as { __zustand: { getState(): unknown } }).__zustand.getState()),
  );
  expect(state).not.toContain('dialog-page-canary-value');
});
