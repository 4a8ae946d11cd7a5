// Stop in browser mode: mid-stream the answer stops where it is; mid-tool the call is cancelled for real.
import { callTool, loadTools, say } from './support/model-script';
import { card, expect, newChat, openApp, send, test } from './support/fixtures';

test('Stop mid-stream keeps the partial answer and ends the turn', async ({ page, launch }) => {
  const app = await launch();
  app.model.enqueue(say('word '.repeat(400), { delayMs: 30, chunkSize: 5 }));
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Talk for a long time');
  const answer = page.getByRole('article', { name: 'Assistant' }).last();
  await expect(answer).toContainText('word word word');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(answer).toContainText('Stopped.');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeDisabled();
  const partial = (await answer.textContent()) ?? '';
  expect(partial.split('word').length - 1).toBeLessThan(400);
  // The chat takes the next message at once.
  app.model.enqueue(say('Back again.'));
  await send(page, 'Are you there?');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Back again.');
});

test('Stop during a running tool cancels the call', async ({ page, launch }) => {
  const app = await launch();
  app.model.enqueue(loadTools('run_command'), callTool('run_command', { command: 'sleep 20' }));
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Wait twenty seconds');
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  const sleeper = card(page, 'run_command');
  await expect(sleeper).toHaveAttribute('data-state', 'running');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(sleeper).toHaveAttribute('data-state', 'cancelled');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeDisabled();
  expect(app.model.requests).toHaveLength(2);
});
