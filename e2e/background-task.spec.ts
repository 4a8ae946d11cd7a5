// Background tasks in browser mode: the panel lists the task live with its countdown and output; Cancel stops it.
import { callTool, loadTools, say } from './support/model-script';
import { expect, newChat, openApp, send, test } from './support/fixtures';

test('a background task shows its countdown and output, and Cancel stops it', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  app.model.enqueue(
    loadTools('background_command'),
    callTool('background_command', {
      command: 'for i in $(seq 1 300); do echo tick-$i; sleep 0.2; done',
      timeout_min: 1,
    }),
    say('Started it in the background.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Start the ticker');
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'Started it in the background.',
  );

  const panel = page.getByRole('region', { name: 'Background tasks' });
  const row = panel.getByRole('listitem', { name: 'Task background_command' });
  await expect(row).toContainText('running');
  await expect(row.getByRole('timer')).toContainText(/of 1 min 00 s · \d+ s left/);
  await expect(row).toContainText('tick-3');
  await expect(row.getByRole('progressbar')).toBeVisible();
  await shot(page, 'background-task');

  await row.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toContainText('cancelled');
  await expect(row.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  // Stopped for real: the output stops growing.
  const tail = await row.locator('.output-tail').textContent();
  await page.waitForTimeout(800);
  expect(await row.locator('.output-tail').textContent()).toBe(tail);
});
