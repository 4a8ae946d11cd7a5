// Where a chat works (docs/security.md, "Default workspace"): with no default, each new chat gets a folder of its
// own under ~/Agenvoy and says so; the home folder itself is used only after the person confirms it.
import fs from 'node:fs';
import path from 'node:path';
import { say } from './support/model-script';
import { expect, newChat, openApp, send, test } from './support/fixtures';

test('a new chat works in a folder of its own; the home folder needs a confirmation', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch({ ownFolders: true });
  const home = app.userHome as string;
  app.model.enqueue(say('Noted.'));
  await openApp(page, app);
  await newChat(page);
  const own = path.join(home, 'Agenvoy', 'New chat');
  await expect(page.getByText(`This chat works in ${own}`)).toBeVisible();
  await expect(page.locator('.chat-bar .workspace')).toHaveText(own);
  expect(fs.statSync(own).isDirectory()).toBe(true);
  await shot(page, 'new-chat-own-folder');

  // The empty folder takes the chat's title with its first message.
  await send(page, 'Plan the garden');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Noted.');
  const named = path.join(home, 'Agenvoy', 'Plan the garden');
  await expect(page.locator('.chat-bar .workspace')).toHaveText(named);

  // Declined: nothing changes.
  const asked: string[] = [];
  page.once('dialog', (confirm) => {
    asked.push(confirm.message());
    void confirm.dismiss();
  });
  await page.getByRole('button', { name: 'Change workspace' }).click();
  await page.getByLabel('Workspace folder').fill(home);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toContain('home folder');
  await expect(page.locator('.chat-bar .workspace')).toHaveText(named);

  // Confirmed: the chat works in the home folder.
  page.once('dialog', (confirm) => void confirm.accept());
  await page.getByRole('button', { name: 'Change workspace' }).click();
  await page.getByLabel('Workspace folder').fill(home);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.chat-bar .workspace')).toHaveText(home);

  // Settings: empty default workspace says where new chats go; the home folder as default asks first.
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Default workspace')).toHaveValue('');
  await expect(page.getByText('Each new chat gets a folder of its own in')).toContainText(
    path.join(home, 'Agenvoy'),
  );
  page.once('dialog', (confirm) => void confirm.dismiss());
  await page.getByLabel('Default workspace').fill(home);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('alert')).toContainText('Not saved');
  const settings = JSON.parse(fs.readFileSync(path.join(app.home, 'desktop', 'settings.json'), 'utf8')) as {
    defaultWorkspace?: string;
  };
  expect(settings.defaultWorkspace ?? '').toBe('');
});
