// write_todo, write_result and a batch of approvals in browser mode: the side column shows the checklist and the
// deliverable; one dialog decides two calls item by item.
import fs from 'node:fs';
import path from 'node:path';
import { callTool, callTools, loadTools, say, toolMessages } from './support/model-script';
import { card, expect, newChat, openApp, send, test } from './support/fixtures';

test('the checklist and a deliverable appear beside the chat', async ({ page, launch, shot }) => {
  const app = await launch();
  app.model.enqueue(
    callTool('write_todo', {
      items: [
        { text: 'Read the notes', status: 'done' },
        { text: 'Write the summary', status: 'in_progress' },
        { text: 'Send it', status: 'pending' },
      ],
    }),
    callTool('write_result', {
      path: 'reports/summary.md',
      content: '# Summary\n\nAll good.\n',
      title: 'Weekly summary',
    }),
    say('The summary is in **reports/summary.md**.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Summarise the week');

  const checklist = page.getByRole('region', { name: 'Checklist' });
  await expect(checklist).toContainText('1/3');
  await expect(checklist.getByRole('listitem')).toHaveText([
    /Read the notes/,
    /Write the summary/,
    /Send it/,
  ]);
  await page.getByRole('dialog').getByRole('button', { name: 'Allow once' }).click();
  const deliverables = page.getByRole('region', { name: 'Deliverables' });
  await expect(deliverables).toContainText('Weekly summary');
  await expect(deliverables).toContainText('summary.md');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('reports/summary.md');
  expect(fs.readFileSync(path.join(app.workspace, 'reports', 'summary.md'), 'utf8')).toContain('All good.');
  await shot(page, 'checklist-and-deliverable');
});

test('a batch of calls is decided item by item in one dialog', async ({ page, launch, shot }) => {
  const app = await launch();
  app.model.enqueue(
    loadTools('run_command'),
    callTools([
      { name: 'run_command', args: { command: 'echo first-call' } },
      { name: 'run_command', args: { command: 'echo second-call' } },
    ]),
    say('One ran, one was refused.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Run both');

  const dialog = page.getByRole('dialog', { name: 'Approve 2 tool calls' });
  await expect(dialog.getByLabel('Arguments', { exact: true })).toContainText('first-call');
  await shot(page, 'approval-batch');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog.getByLabel('Arguments', { exact: true })).toContainText('second-call');
  await dialog.getByLabel('Reason for denying (sent to the model)').fill('one is enough');
  await dialog.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(dialog).toBeHidden();

  const cards = page.getByRole('group', { name: 'Tool call run_command' });
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toHaveAttribute('data-state', 'ok');
  await expect(cards.nth(1)).toHaveAttribute('data-state', 'denied');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'One ran, one was refused.',
  );
  const results = toolMessages(app.model.requests[2]?.body).join('\n');
  expect(results).toContain('first-call');
  expect(results).toContain('one is enough');
  await expect(card(page, 'find_tools')).toHaveAttribute('data-state', 'ok');
});
