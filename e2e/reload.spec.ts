// Reload in browser mode: a pending approval, a streaming answer and the finished chat all survive a page reload.
import { callTool, loadTools, say } from './support/model-script';
import { card, expect, newChat, openApp, send, test } from './support/fixtures';

const ANSWER = Array.from({ length: 60 }, (_, i) => `line-${i}`).join(' ');

test('reloading mid-chat keeps the dialog, the stream and the history', async ({ page, launch, shot }) => {
  const app = await launch();
  app.model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command: 'echo reloaded-ok' }),
    say(ANSWER, { delayMs: 60, chunkSize: 6 }),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Echo something, then talk');
  await expect(page.getByRole('dialog')).toBeVisible();

  // 1. The approval is still pending after a reload: main still asks.
  await page.reload();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Arguments', { exact: true })).toContainText('echo reloaded-ok');
  await expect(page.getByRole('article', { name: 'You' })).toHaveText('Echo something, then talk');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(card(page, 'run_command')).toHaveAttribute('data-state', 'ok');

  // 2. Mid-stream: the partial answer is there and the rest keeps coming into the same message.
  const answer = page.getByRole('article', { name: 'Assistant' }).last();
  await expect(answer).toContainText('line-10');
  await page.reload();
  await expect(page.getByRole('article', { name: 'You' })).toHaveText('Echo something, then talk');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('line-59', {
    timeout: 20_000,
  });
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toHaveText(ANSWER);
  await expect(page.getByRole('button', { name: 'Stop' })).toBeDisabled();

  // 3. Afterwards: everything is still there, from the store.
  await page.reload();
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toHaveText(ANSWER);
  await expect(card(page, 'run_command')).toHaveAttribute('data-state', 'ok');
  await expect(card(page, 'find_tools')).toHaveAttribute('data-state', 'ok');
  await expect(
    page
      .getByRole('navigation', { name: 'Chats' })
      .getByRole('button', { name: 'Echo something, then talk' }),
  ).toHaveAttribute('aria-current', 'true');
  await shot(page, 'after-reload');
});
