// The chat header's model picker: the provider's list (cached, refreshed on request), the choice kept with the chat
// by main, and the chat's next request to the provider carries that model.
import { say } from './support/model-script';
import { expect, newChat, openApp, send, test } from './support/fixtures';

import type { AppUnderTest } from './support/app-under-test';

// The model each chat request asked for (the model list's GETs left out).
const askedModels = (app: AppUnderTest) =>
  app.model.requests
    .filter((request) => request.method === 'POST')
    .map((request) => (request.body as { model?: unknown } | null)?.model);

test('the picked model is the one the next request asks for, and it stays with the chat', async ({
  page,
  launch,
}) => {
  const app = await launch();
  app.model.models = ['test-model', 'bigger-model'];
  app.model.enqueue(say('Answered by the bigger one.'), say('Back to the default.'));
  await openApp(page, app);
  await newChat(page);

  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  // Nothing is asked of the provider until the picker is used.
  await expect(picker.locator('option')).toHaveText(['Default (settings: test-model)']);
  expect(app.model.requests).toEqual([]);
  await picker.focus();
  await expect(picker.locator('option')).toHaveText([
    'Default (settings: test-model)',
    'test-model',
    'bigger-model',
  ]);
  await picker.selectOption('bigger-model');
  await expect(picker).toHaveValue('bigger-model');
  await send(page, 'Which model are you?');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'Answered by the bigger one.',
  );
  expect(askedModels(app)).toEqual(['bigger-model']);

  // Kept with the chat: a reload (a new page, the same main) shows it picked.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue('bigger-model');

  // Back to the settings' model.
  await page.getByRole('combobox', { name: 'Model', exact: true }).selectOption('');
  await expect(page.getByRole('combobox', { name: 'Model', exact: true })).toHaveValue('');
  await send(page, 'And now?');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Back to the default.');
  expect(askedModels(app)).toEqual(['bigger-model', 'test-model']);
});

test('the list is cached and Refresh asks the provider again', async ({ page, launch }) => {
  const app = await launch();
  app.model.models = ['test-model'];
  await openApp(page, app);
  await newChat(page);
  const picker = page.getByRole('combobox', { name: 'Model', exact: true });
  await picker.hover();
  await expect(picker.locator('option')).toHaveCount(2);

  app.model.models = ['test-model', 'newer-model'];
  // Another chat (made with the keyboard) opens with the cached list: the server's new model is not asked for yet.
  const items = page.locator('nav[aria-label="Chats"] .chat-list button');
  await page.keyboard.press('Control+Shift+O');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toHaveAttribute('aria-current', 'true');
  await picker.focus();
  await expect(picker.locator('option')).toHaveCount(2);
  await page.getByRole('button', { name: 'Refresh the model list' }).click();
  await expect(picker.locator('option')).toHaveText([
    'Default (settings: test-model)',
    'test-model',
    'newer-model',
  ]);
  // The refreshed list survives a reload (the cache), even once the server lists nothing new.
  app.model.models = null;
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Model', exact: true }).locator('option')).toHaveCount(3);
});
