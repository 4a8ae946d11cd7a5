// A newcomer's first minutes in browser mode: a fresh AGENVOY_HOME opens on the Welcome page; a local
// OpenAI-compatible server without a key is set up there (Test connection lists its models through main), and the
// first message is typed at once, with no chat to create first — sent by Enter and by the Send button.
import { say } from './support/model-script';
import { expect, openApp, test } from './support/fixtures';

test('first run: Welcome, a local server with no key, Test connection, pick the model, Start chatting, answer', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch({ firstRun: true });
  app.model.models = ['local-small', 'local-large'];
  app.model.enqueue(say('Hello from the local model.'));
  await openApp(page, app);

  const welcome = page.getByRole('region', { name: 'Welcome' });
  await expect(welcome).toBeVisible();
  const provider = welcome.getByLabel('Provider');
  await expect(provider.locator('option')).toHaveText([
    'Anthropic',
    'OpenAI',
    'OpenRouter',
    'DeepSeek',
    'Ollama',
    'LM Studio',
    'OpenAI-compatible (custom)',
  ]);
  await provider.selectOption({ label: 'Ollama' });
  await expect(welcome.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:11434/v1');
  await provider.selectOption({ label: 'OpenAI-compatible (custom)' });
  await welcome.getByLabel('Base URL').fill(app.model.baseUrl);
  await welcome.getByLabel('No key').check();
  await expect(welcome.getByRole('button', { name: 'Enter API key' })).toBeDisabled();
  await welcome.getByRole('button', { name: 'Test connection' }).click();
  await expect(welcome.getByRole('status')).toContainText('Connected: 2 models');
  const model = welcome.getByLabel('Model');
  await expect(model.locator('option')).toHaveText(['local-small', 'local-large']);
  await model.selectOption('local-large');
  await shot(page, 'welcome');
  await welcome.getByRole('button', { name: 'Start chatting' }).click();

  await expect(welcome).toBeHidden();
  const composer = page.getByLabel('Message');
  await expect(composer).toBeFocused();
  await composer.fill('Hi there');
  await composer.press('Enter');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toHaveText(
    'Hello from the local model.',
  );
  const request = app.model.requests.find((r) => r.method === 'POST');
  expect(request?.body.model).toBe('local-large');
  expect(request?.headers.authorization).toBeUndefined();
  await expect(
    page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Hi there' }),
  ).toHaveAttribute('aria-current', 'true');
});

test('first run with a key: typed into the masked prompt, sent only after the person confirms where it goes', async ({
  page,
  launch,
}) => {
  const KEY = 'sk-first-run-canary-31337';
  const app = await launch({ firstRun: true });
  app.model.models = ['keyed-model'];
  app.model.enqueue(say('Keyed answer.'));
  await openApp(page, app);
  const welcome = page.getByRole('region', { name: 'Welcome' });
  await welcome.getByLabel('Provider').selectOption({ label: 'OpenAI-compatible (custom)' });
  await welcome.getByLabel('Base URL').fill(app.model.baseUrl);

  // The key goes into main's masked prompt, never into the Welcome page.
  await welcome.getByRole('button', { name: 'Enter API key' }).click();
  const secret = page.getByRole('dialog');
  const field = secret.getByLabel('CUSTOM_API_KEY');
  await expect(field).toHaveAttribute('type', 'password');
  await field.fill(KEY);
  await secret.getByRole('button', { name: 'Save' }).click();
  await expect(secret).toBeHidden();

  // A stored key to a new address: main asks first, and nothing is sent before the answer.
  await welcome.getByRole('button', { name: 'Test connection' }).click();
  const ask = page.getByRole('dialog', { name: 'Agenvoy asks' });
  await expect(ask).toContainText(`Send the API key stored as CUSTOM_API_KEY to ${app.model.origin}?`);
  expect(app.model.requests).toEqual([]);
  await ask.getByLabel(`Send CUSTOM_API_KEY to ${app.model.origin}`).check();
  await ask.getByRole('button', { name: 'Answer' }).click();
  await expect(welcome.getByRole('status')).toContainText('Connected: 1 model');
  expect(app.model.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

  // Saving the same pair asks no second time (confirmed while the host runs); the first answer uses the key.
  await welcome.getByRole('button', { name: 'Start chatting' }).click();
  await expect(welcome).toBeHidden();
  await page.getByLabel('Message').fill('Hello');
  await page.getByLabel('Message').press('Enter');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toHaveText('Keyed answer.');
  expect(app.model.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(await page.content()).not.toContain(KEY);
});

test('Test connection says in words what went wrong', async ({ page, launch }) => {
  const app = await launch({ firstRun: true });
  app.model.models = null;
  await openApp(page, app);
  const welcome = page.getByRole('region', { name: 'Welcome' });
  await welcome.getByLabel('Provider').selectOption({ label: 'LM Studio' });
  await welcome.getByLabel('Base URL').fill(app.model.origin);
  await welcome.getByRole('button', { name: 'Test connection' }).click();
  await expect(welcome.getByRole('alert')).toContainText('HTTP 404');
  await expect(welcome.getByRole('alert')).toContainText('check the Base URL');
  // With no list, a typed model id is still possible.
  await expect(welcome.getByLabel('Model')).toHaveJSProperty('tagName', 'INPUT');
});

test('type and go: with no chat open the composer is ready; Enter and the Send button each start a chat', async ({
  page,
  launch,
}) => {
  const app = await launch();
  app.model.enqueue(say('first answer'), say('second answer'));
  await openApp(page, app);
  const composer = page.getByLabel('Message');
  await expect(composer).toBeEnabled();
  await expect(composer).toBeFocused();
  await page.keyboard.type('Plan my week');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toHaveText('first answer');
  const chats = page.getByRole('navigation', { name: 'Chats' });
  await expect(chats.getByRole('button', { name: 'Plan my week' })).toHaveAttribute('aria-current', 'true');

  // Back to no chat open (the store's own action, as closing a chat does): the Send button starts the next one.
  await page.evaluate(() =>
    (window as unknown as { __zustand: { getState: () => { closeChat(): void } } }).__zustand
      .getState()
      .closeChat(),
  );
  await expect(page.getByText('Type a message below to start a new chat.')).toBeVisible();
  await composer.fill('Summarise the news');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toHaveText('second answer');
  await expect(chats.getByRole('button', { name: 'Summarise the news' })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await expect(chats.locator('.chat-list button')).toHaveCount(2);
});
