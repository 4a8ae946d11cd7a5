// Accessibility of every screen — chat, an open approval, the secret prompt, Welcome, Tools, Rules, Settings — in both
// themes and both languages, each reached the way a person does, with the OS's preferences (the browser context's
// locale and prefers-color-scheme) choosing the language and theme, as the app follows them.
import { callTool, loadTools, say } from './support/model-script';
import { canaryTool } from './support/script-tools';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';

// The few words the flow clicks, as each language shows them.
const WORDS = {
  en: {
    newChat: 'New chat',
    message: 'Message',
    send: 'Send',
    allowOnce: 'Allow once',
    save: 'Save',
    tools: 'Tools',
    rules: 'Rules',
    settings: 'Settings',
    welcome: 'Welcome',
    toolsHeading: 'Tools',
    rulesHeading: 'Approval rules',
    settingsHeading: 'Model provider',
  },
  'zh-TW': {
    newChat: '新對話',
    message: '訊息',
    send: '送出',
    allowOnce: '允許一次',
    save: '儲存',
    tools: '工具',
    rules: '規則',
    settings: '設定',
    welcome: '歡迎',
    toolsHeading: '工具',
    rulesHeading: '核准規則',
    settingsHeading: '模型供應商',
  },
} as const;

for (const locale of ['en', 'zh-TW'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test.describe(`${locale}, ${colorScheme}`, () => {
      test.use({ locale, colorScheme });
      const words = WORDS[locale];

      test('every screen has no serious or critical axe violation', async ({ page, launch }) => {
        // Five full axe runs: about 50 s on an idle two-core machine, so more room than the default minute.
        test.setTimeout(180_000);
        const app = await launch({ prepare: ({ home }) => canaryTool(home) });
        app.model.enqueue(
          loadTools('run_command'),
          callTool('run_command', { command: 'echo accessible' }),
          say('It printed **accessible**.'),
          loadTools('script_read_canary'),
          callTool('script_read_canary', {}),
          say('The canary key works.'),
        );
        await page.goto(app.url);
        await expect(page.getByRole('button', { name: words.newChat, exact: true })).toBeVisible();
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);

        await page.getByRole('button', { name: words.newChat, exact: true }).click();
        await page.getByLabel(words.message, { exact: true }).fill('Run the command');
        await page.getByRole('button', { name: words.send, exact: true }).click();
        const approval = page.getByRole('dialog');
        await expect(approval.getByRole('button', { name: words.allowOnce })).toBeVisible();
        await expectAccessible(page, 'an open approval');
        await approval.getByRole('button', { name: words.allowOnce }).click();
        await expect(page.getByRole('article').last().locator('strong')).toHaveText('accessible');
        await expectAccessible(page, 'the chat');

        await page.getByLabel(words.message, { exact: true }).fill('Check the canary key');
        await page.getByRole('button', { name: words.send, exact: true }).click();
        const secret = page.getByRole('dialog');
        await expect(secret.getByLabel('CANARY_KEY')).toBeVisible();
        await expectAccessible(page, 'the secret prompt');
        await secret.getByLabel('CANARY_KEY').fill('a11y-canary');
        await secret.getByRole('button', { name: words.save }).click();
        await expect(page.getByRole('article').last()).toContainText('The canary key works.');

        const screens = [
          [words.tools, words.toolsHeading],
          [words.rules, words.rulesHeading],
          [words.settings, words.settingsHeading],
        ] as const;
        for (const [button, heading] of screens) {
          await page.getByRole('navigation').getByRole('button', { name: button, exact: true }).click();
          await expect(page.getByRole('heading', { name: new RegExp(`^${heading}`) }).first()).toBeVisible();
          await expectAccessible(page, button);
        }
      });

      test('the Welcome page has no serious or critical axe violation', async ({ page, launch }) => {
        const app = await launch({ firstRun: true });
        await page.goto(app.url);
        await expect(page.getByRole('heading', { name: words.welcome })).toBeVisible();
        await expectAccessible(page, 'Welcome');
      });
    });
  }
}
