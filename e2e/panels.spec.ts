// The other screens in browser mode: chat list with search, workspace per chat, tools with lint, rules with revoke.
import fs from 'node:fs';
import path from 'node:path';
import { callTool, loadTools, say } from './support/model-script';
import { writeScriptTool } from './support/script-tools';
import { expect, newChat, openApp, send, test } from './support/fixtures';

test('chats: new chat, search by title and by message text, workspace per chat', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  app.model.enqueue(say('Pelicans are large water birds.'), say('Rust has a borrow checker.'));
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Tell me about pelicans');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('water birds');
  await newChat(page);
  await send(page, 'Tell me about Rust');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('borrow checker');

  const chats = page.getByRole('navigation', { name: 'Chats' });
  await expect(chats.getByRole('listitem')).toHaveCount(2);
  await chats.getByLabel('Search chats').fill('water birds');
  await expect(page.getByRole('region', { name: 'Search results' })).toContainText('Tell me about pelicans');
  await expect(page.getByRole('region', { name: 'Search results' }).locator('mark').first()).toBeVisible();
  await shot(page, 'chat-search');
  await page.getByRole('region', { name: 'Search results' }).getByRole('button').first().click();
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('water birds');
  await chats.getByLabel('Search chats').fill('');

  const other = fs.mkdtempSync(path.join(app.home, 'ws-'));
  await page.getByRole('button', { name: 'Change workspace' }).click();
  await page.getByLabel('Workspace folder').fill(other);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.chat-bar .workspace')).toHaveText(other);
  await page
    .getByRole('navigation', { name: 'Chats' })
    .getByRole('button', { name: 'Tell me about Rust' })
    .click();
  await expect(page.locator('.chat-bar .workspace')).toHaveText(app.workspace);

  page.once('dialog', (confirm) => void confirm.accept());
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(chats.getByRole('listitem')).toHaveCount(1);
  await expect(chats.getByRole('button', { name: 'Tell me about Rust' })).toHaveCount(0);
});

test('tools panel lists tools with flags, timeouts and lint findings, and MCP servers', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch({
    prepare: ({ home }) => {
      // A real third-party MCP server over stdio.
      const everything = path.resolve('node_modules', '.bin', 'mcp-server-everything');
      fs.writeFileSync(
        path.join(home, 'mcp.json'),
        JSON.stringify({ servers: { everything: { command: everything, args: ['stdio'] } } }),
      );
      writeScriptTool(
        home,
        {
          name: 'doStuff',
          description: 'stuff',
          parameters: { type: 'object', properties: { x: { type: 'string' } } },
          timeout: 45,
        },
        "process.stdout.write('done');\n",
      );
    },
  });
  await openApp(page, app);
  await page.getByRole('button', { name: 'Tools' }).click();
  const table = page.getByRole('table');
  const runCommand = table.getByRole('row').filter({ hasText: 'run_command' }).first();
  await expect(runCommand).toContainText('30 min');
  await expect(table.getByRole('row').filter({ hasText: 'ask_user' })).toContainText('no limit');
  const script = table.getByRole('row').filter({ hasText: 'script_doStuff' });
  await expect(script).toContainText('45 s');
  await expect(script).toContainText('R1_');
  const server = page.getByRole('listitem', { name: 'MCP server everything' });
  await expect(server).toContainText('ready over stdio', { timeout: 30_000 });
  await expect(server).toContainText(/[1-9]\d* tools/);
  await shot(page, 'tools-panel');
  await server.getByRole('button', { name: 'Reconnect' }).click();
  await expect(server).toContainText('ready over stdio', { timeout: 30_000 });
  await expect(server.getByRole('button', { name: 'Reconnect' })).toBeEnabled();
  await expect(table.getByRole('row').filter({ hasText: 'mcp__everything__' }).first()).toContainText('mcp');
});

test('settings are saved and kept', async ({ page, launch }) => {
  const app = await launch();
  await openApp(page, app);
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('test-model');
  await page.getByLabel('Model', { exact: true }).fill('test-model-2');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('test-model-2');
  const saved = JSON.parse(fs.readFileSync(path.join(app.home, 'desktop', 'settings.json'), 'utf8')) as {
    model: string;
  };
  expect(saved.model).toBe('test-model-2');
});

test('rules: Always allow saves a rule that the rules screen lists and revokes', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  app.model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command: 'echo rule-test' }),
    say('Echoed.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Echo with a rule');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Pattern an “always” rule saves (empty: match anything)')).toHaveValue(
    'echo rule-test',
  );
  await dialog.getByRole('button', { name: 'Always allow' }).click();
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Echoed.');

  await page.getByRole('button', { name: 'Rules' }).click();
  const rule = page
    .getByRole('listitem', { name: 'Rule allow run_command' })
    .filter({ hasText: 'echo rule-test' });
  await expect(rule).toBeVisible();
  await shot(page, 'rules-panel');
  await rule.getByRole('button', { name: 'Revoke' }).click();
  await expect(rule).toHaveCount(0);
});
