// The e2e test object: `launch` starts the real app (closed after the test), `shot` saves a screenshot to look at.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect } from '@playwright/test';
import type { AppOptions, AppUnderTest } from './app-under-test';
import { startAppUnderTest } from './app-under-test';

/** Where screenshots of the main screens go (gitignored). */
export const SCREENSHOTS = path.resolve('e2e', 'screenshots');

interface Fixtures {
  launch: (options?: AppOptions) => Promise<AppUnderTest>;
  shot: (page: Page, name: string) => Promise<void>;
  /** Fails the test on an uncaught page error or a CSP violation in any of its pages. */
  pageProblems: void;
}

/** Playwright's test with the app fixtures. */
export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as the first argument
  launch: async ({}, use) => {
    const apps: AppUnderTest[] = [];
    await use(async (options) => {
      const app = await startAppUnderTest(options);
      apps.push(app);
      return app;
    });
    for (const app of apps) await app.close();
  },
  pageProblems: [
    async ({ context }, use) => {
      const problems: string[] = [];
      const watch = (page: Page) => {
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        page.on('console', (message) => {
          if (/Content.Security.Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
        });
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      expect(problems, 'problems in the pages').toEqual([]);
    },
    { auto: true },
  ],
  // eslint-disable-next-line no-empty-pattern -- as above
  shot: async ({}, use) => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await use(async (page, name) => {
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
    });
  },
});

/** Playwright's expect, re-exported so specs import everything from one place. */
export { expect };

/** Opens the app's page and waits until it is connected and shows its chrome. */
export async function openApp(page: Page, app: AppUnderTest): Promise<void> {
  await page.goto(app.url);
  await expect(page.getByRole('button', { name: 'New chat', exact: true })).toBeVisible();
}

/** Creates a chat with the sidebar's New chat button and waits until it is the open one (first in the list, current). */
export async function newChat(page: Page): Promise<void> {
  const items = page.locator('nav[aria-label="Chats"] .chat-list button');
  const before = await items.count();
  await page.getByRole('button', { name: 'New chat', exact: true }).click();
  await expect(items).toHaveCount(before + 1);
  await expect(items.first()).toHaveAttribute('aria-current', 'true');
  await expect(page.getByLabel('Message')).toBeEnabled();
}

/** Types a message and sends it with the Send button. */
export async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** The card of the first call of `tool` in the open chat. */
export function card(page: Page, tool: string) {
  return page.getByRole('group', { name: `Tool call ${tool}` }).first();
}
