// Workspace trust in browser mode (docs/security.md): a workspace's own tools are untrusted until the person clicks
// "Trust this folder" — they ask on every call (whatever their tool.json says) and are marked so; Settings lists
// the trusted folder and revokes it.
import fs from 'node:fs';
import path from 'node:path';
import { callTool, loadTools, say } from './support/model-script';
import { writeWorkspaceTool } from './support/script-tools';
import { card, expect, newChat, openApp, send, test } from './support/fixtures';

test('an untrusted workspace tool asks every call until the person trusts the folder; revoke undoes it', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch({
    prepare: ({ workspace }) =>
      writeWorkspaceTool(
        workspace,
        {
          name: 'hello',
          description: 'Say hello from the workspace.\nUse when testing workspace tools.',
          parameters: { type: 'object', properties: {}, additionalProperties: false },
          // A repository's tool.json is a stranger's: this must not skip the prompt while it is untrusted.
          always_allow: true,
          timeout: 30,
        },
        "process.stdout.write('hello from the workspace');\n",
      ),
  });
  const folder = fs.realpathSync(app.workspace);
  const screen = (name: string) =>
    page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name, exact: true });
  const trustFile = path.join(app.home, 'desktop', 'trusted-folders.json');
  app.model.enqueue(
    loadTools('script_hello'),
    callTool('script_hello', {}),
    say('Said hello once.'),
    loadTools('script_hello'),
    callTool('script_hello', {}),
    say('Said hello again.'),
  );
  await openApp(page, app);

  const notice = page.getByRole('region', { name: 'Untrusted workspace tools' });
  await expect(notice).toContainText('script_hello');
  await expect(notice).toContainText('ask on every call and get no secrets');
  await screen('Tools').click();
  const row = page.getByRole('table').getByRole('row').filter({ hasText: 'script_hello' });
  await expect(row).toContainText('untrusted workspace tool: asks every call, gets no secrets');
  await shot(page, 'tools-untrusted');

  await screen('Chat').click();
  await newChat(page);
  await send(page, 'Say hello');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('script (workspace, untrusted)');
  await expect(dialog.getByRole('note', { name: 'Only this call' })).toContainText('you have not trusted');
  await expect(dialog.getByRole('button', { name: 'Always allow' })).toHaveCount(0);
  await shot(page, 'approval-untrusted-tool');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Said hello once.');
  expect(fs.existsSync(trustFile)).toBe(false);

  // Only the person's "Trust" in main's own dialog trusts the folder; Cancel leaves it untrusted.
  await notice.getByRole('button', { name: 'Trust this folder' }).click();
  const ask = page.getByRole('dialog', { name: 'Trust this folder?' });
  await expect(ask).toContainText(folder);
  await expect(ask.getByRole('list', { name: 'Its workspace tools' })).toContainText(
    'script_hello — runs without asking (always_allow)',
  );
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Not trusted.' })).toBeVisible();
  await expect(notice).toContainText('script_hello');
  expect(fs.existsSync(trustFile)).toBe(false);

  await notice.getByRole('button', { name: 'Trust this folder' }).click();
  await shot(page, 'trust-dialog');
  await ask.getByRole('button', { name: 'Trust', exact: true }).click();
  await expect(notice).toHaveCount(0);
  await expect.poll(() => fs.existsSync(trustFile) && fs.readFileSync(trustFile, 'utf8')).toContain(folder);

  // Trusted, its own always_allow applies: no dialog this time.
  await send(page, 'Say hello again');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Said hello again.');
  await expect(page.getByRole('group', { name: 'Tool call script_hello' })).toHaveCount(2);
  await expect(card(page, 'script_hello')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByRole('group', { name: 'Tool call script_hello' }).last()).toHaveAttribute(
    'data-state',
    'ok',
  );

  await screen('Tools').click();
  await expect(row).not.toContainText('untrusted');
  await screen('Settings').click();
  const trust = page.getByRole('region', { name: 'Trusted folders' });
  const entry = trust.getByRole('listitem', { name: `Trusted folder ${folder}` });
  await expect(entry).toBeVisible();
  await expect(trust).toContainText('trusted (1 tool of its own: script_hello)');
  await shot(page, 'settings-trusted-folders');
  await entry.getByRole('button', { name: 'Revoke' }).click();
  await expect(entry).toHaveCount(0);
  await expect(trust.getByRole('button', { name: 'Trust this folder' })).toBeVisible();
  await screen('Chat').click();
  await expect(notice).toContainText('script_hello');
});
