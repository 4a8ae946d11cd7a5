// A long chat in browser mode: 5,000 stored messages open fast, only a window of them is in the DOM, and the
// whole history is reachable by scrolling. (bench/ui-bench.ts measures the same screen's frame times.)
import { LAST_SEEDED, seedLongChat } from './support/seed-chat';
import { expect, openApp, test } from './support/fixtures';

test('a chat of 5,000 messages opens within a second and scrolls end to end', async ({
  page,
  launch,
  shot,
}) => {
  test.setTimeout(120_000);
  let chatId = '';
  const app = await launch({
    prepare: ({ home, workspace }) => void (chatId = seedLongChat(home, workspace, 5000)),
  });
  await openApp(page, app);
  // The newest chat opens by itself on start; open it again by hand to time just the opening.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Chat', exact: true }).click();
  await page.evaluate(() => history.replaceState(null, '', location.pathname + location.search));
  await page.reload();
  await expect(page.getByRole('log', { name: 'Conversation' })).toBeVisible();

  const opened = await page.evaluate(
    async ({ id, last }) => {
      const store = (
        window as unknown as {
          __zustand: { getState(): { closeChat(): void; openChat(id: string): Promise<void> } };
        }
      ).__zustand;
      store.getState().closeChat();
      const start = performance.now();
      await store.getState().openChat(id);
      // Until the last message is painted.
      await new Promise<void>((resolve) => {
        const check = () =>
          document.body.textContent?.includes(last) ? resolve() : requestAnimationFrame(check);
        check();
      });
      await new Promise((resolve) => requestAnimationFrame(resolve));
      return performance.now() - start;
    },
    { id: chatId, last: LAST_SEEDED },
  );
  test.info().annotations.push({ type: 'open 5,000 messages', description: `${Math.round(opened)} ms` });
  expect(opened).toBeLessThan(1000);

  const log = page.getByRole('log', { name: 'Conversation' });
  expect(await log.locator('.virtual-row').count()).toBeLessThan(60);
  await shot(page, 'long-chat');
  await log.evaluate((el) => (el.scrollTop = 0));
  await expect(log).toContainText('Question 0: how do I rename a branch');
  await log.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect(log.locator('.virtual-row').first()).toBeVisible();
  await log.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(log).toContainText(LAST_SEEDED);
});
