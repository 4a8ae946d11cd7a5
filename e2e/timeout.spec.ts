// Timeouts in browser mode: a tool that runs past its limit shows the countdown, then "timed out".
import { callTool, loadTools, say, toolMessages } from './support/model-script';
import { card, expect, newChat, openApp, send, test } from './support/fixtures';

test('a tool that times out shows it, and the model reads it', async ({ page, launch, shot }) => {
  // run_command's 30 min limit, scaled down to 2.7 s.
  const app = await launch({ timeoutScale: 0.0015 });
  app.model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command: 'sleep 30' }),
    say('It took too long.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Sleep for a while');
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();

  const sleeper = card(page, 'run_command');
  await expect(sleeper).toHaveAttribute('data-state', 'running');
  await expect(sleeper.getByRole('timer')).toContainText(/of 2\.7 s · .* left/);
  await expect(sleeper).toHaveAttribute('data-state', 'timed out', { timeout: 10_000 });
  await expect(sleeper.getByRole('timer')).toContainText('of 2.7 s');
  await expect(sleeper.locator('.tool-result')).toContainText(/timed out/);
  await shot(page, 'tool-timed-out');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('It took too long.');
  expect(toolMessages(app.model.requests[2]?.body).join('\n')).toMatch(/timed out/);
});
