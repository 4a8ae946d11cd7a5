// The confirm gate in browser mode: the dialog shows the full arguments; Allow once runs the tool live; Deny with
// a reason reaches the model.
import { callTool, loadTools, say, toolMessages } from './support/model-script';
import { card, expect, newChat, openApp, send, test } from './support/fixtures';

test('a tool call is approved once, shows its progress and result, and the answer streams', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  const command = 'for i in 1 2 3 4; do echo step-$i; sleep 0.4; done';
  app.model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command }),
    say('The command printed **four steps**, from `step-1` to `step-4`.', { delayMs: 40, chunkSize: 4 }),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Run the steps please');

  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Arguments', { exact: true })).toContainText('step-$i; sleep 0.4');
  await expect(dialog).toContainText('run_command');
  await expect(dialog).toContainText('30 min');
  await shot(page, 'approval-dialog');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toBeHidden();

  const runCard = card(page, 'run_command');
  await expect(runCard).toHaveAttribute('data-state', 'running');
  await expect(runCard.getByRole('timer')).toContainText('of 30 min');
  await expect(runCard).toContainText('step-2');
  await shot(page, 'tool-running');
  await expect(runCard).toHaveAttribute('data-state', 'ok', { timeout: 15_000 });
  await expect(runCard).toContainText('step-4');

  const answer = page.getByRole('article', { name: 'Assistant' }).last();
  await expect(answer.locator('strong')).toHaveText('four steps');
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeDisabled();
  await runCard.getByRole('button', { expanded: false }).click();
  await expect(runCard.locator('.tool-result')).toContainText('step-4');
  await shot(page, 'chat-answered');

  // The third request carried the command's real output back to the model.
  expect(app.model.requests).toHaveLength(3);
  expect(toolMessages(app.model.requests[2]?.body).join('\n')).toContain('step-4');
});

test('Deny with a reason: the card says denied and the model receives the reason', async ({
  page,
  launch,
}) => {
  const app = await launch();
  app.model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command: 'rm -rf build' }),
    say('Understood, I will not delete it.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Clean the build folder');

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Arguments', { exact: true })).toContainText('rm -rf build');
  await dialog
    .getByLabel('Reason for denying (sent to the model)')
    .fill('keep the build, it is needed for the release');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(dialog).toBeHidden();

  const denied = card(page, 'run_command');
  await expect(denied).toHaveAttribute('data-state', 'denied');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'Understood, I will not delete it.',
  );
  await expect.poll(() => app.model.requests.length).toBe(3);
  expect(toolMessages(app.model.requests[2]?.body).join('\n')).toContain(
    'keep the build, it is needed for the release',
  );
});
