// The OS sandbox in browser mode (docs/security.md): the Settings screen shows its state, and the approval dialog
// says how a run_command call runs — sandboxed, or unconfined when the model asked for `sandbox: false`, in which
// case only "Allow once" and the denials are offered.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callTool, loadTools, say, toolMessages } from './support/model-script';
import { card, expect, newChat, openApp, send, test } from './support/fixtures';

test('the Settings screen shows the sandbox: ready, its backend and what it allows', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  await openApp(page, app);
  await page.getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Sandbox' });
  // The test machine has bubblewrap and socat (scripts/test-all.sh installs them).
  await expect(section).toContainText('ready — commands and script tools run in the OS sandbox');
  await expect(section).toContainText('bubblewrap');
  const policy = section.getByRole('list', { name: 'What a sandboxed command may do' });
  await expect(policy.getByRole('listitem').first()).toBeVisible();
  await expect(policy).toContainText('~/.ssh');
  await expect(policy).toContainText('sandbox: false');
  await shot(page, 'settings-sandbox');
});

test('a run_command call shows it runs sandboxed, and runs confined to the workspace', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  // Outside the workspace, and not a sensitive target (those always ask and offer no standing approval).
  const outside = path.join(os.tmpdir(), `agenvoy-e2e-outside-${process.pid}-${Date.now()}.txt`);
  app.model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command: `touch made-here.txt ${outside}` }),
    say('Tried both.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Make two files');

  const dialog = page.getByRole('dialog');
  const how = dialog.getByRole('note', { name: 'How it runs' });
  await expect(how).toContainText('Runs in the OS sandbox');
  await expect(how).toContainText('writes only in the workspace');
  await expect(dialog).not.toContainText('UNCONFINED');
  await expect(dialog.getByRole('button', { name: 'Allow touch for this chat' })).toBeEnabled();
  await expect(dialog.getByRole('button', { name: 'Always allow' })).toBeEnabled();
  await shot(page, 'approval-sandboxed');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Tried both.');
  expect(fs.existsSync(path.join(app.workspace, 'made-here.txt'))).toBe(true);
  // The write outside the workspace was refused, and the model was told so.
  const leaked = fs.existsSync(outside);
  fs.rmSync(outside, { force: true });
  expect(leaked).toBe(false);
  const told = toolMessages(app.model.requests[2]?.body).join('\n');
  expect(told).toContain('the OS sandbox blocked');
  expect(told).toContain(outside);
});

test('sandbox: false warns that it runs unconfined and offers no standing approval', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  app.model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command: 'echo ran-unconfined', sandbox: false }),
    say('It ran outside the sandbox.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Run it outside the sandbox');

  const dialog = page.getByRole('dialog');
  const how = dialog.getByRole('note', { name: 'How it runs' });
  await expect(how).toContainText('Runs UNCONFINED');
  await expect(how).toContainText('with your full access to files and the network');
  await expect(how).toContainText('the model asked for sandbox: false');
  await expect(dialog.getByRole('note', { name: 'Only this call' })).toContainText(
    'Only your decision for this very call can allow it',
  );
  await expect(dialog.getByRole('button', { name: /^Allow .*for this chat$/ })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Always allow' })).toHaveCount(0);
  // A reflexive Enter denies: the focus starts on Deny, not on Allow once.
  await expect(dialog.getByRole('button', { name: 'Deny', exact: true })).toBeFocused();
  await shot(page, 'approval-unconfined');

  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(dialog).toBeHidden();
  const ran = card(page, 'run_command');
  await expect(ran).toHaveAttribute('data-state', 'ok', { timeout: 15_000 });
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'It ran outside the sandbox.',
  );
  expect(toolMessages(app.model.requests[2]?.body).join('\n')).toContain('ran-unconfined');
});
