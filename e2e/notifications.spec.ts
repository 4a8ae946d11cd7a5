// Browser mode's notifications: an approval that opens while the page is hidden raises a system notification (the
// real Notification API, with permission granted to the page); clicking it brings focus into the dialog; the tab's
// title counts what waits. A page the person is looking at gets no notification.
import type { Page } from '@playwright/test';
import { callTool, loadTools, say } from './support/model-script';
import { expect, newChat, openApp, send, test } from './support/fixtures';

interface Recorded {
  title: string;
  body: string;
  tag: string;
  closed: boolean;
}

// Records every notification the page creates, and still creates it through the browser's own constructor.
function recordNotifications(page: Page) {
  return page.addInitScript(() => {
    const Real = window.Notification;
    const notes: Array<{ title: string; body: string; tag: string; closed: boolean; note: Notification }> =
      [];
    class Recording extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        const entry = {
          title,
          body: options?.body ?? '',
          tag: options?.tag ?? '',
          closed: false,
          note: this,
        };
        notes.push(entry);
        const close = this.close.bind(this);
        this.close = () => {
          entry.closed = true;
          close();
        };
      }
    }
    Object.defineProperty(Recording, 'permission', { get: () => Real.permission });
    Object.defineProperty(window, 'Notification', { value: Recording, configurable: true, writable: true });
    Object.defineProperty(window, '__notes', { value: notes });
  });
}

const notes = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __notes: Recorded[] }).__notes.map(({ title, body, tag, closed }) => ({
      title,
      body,
      tag,
      closed,
    })),
  );

// The page as when the person switched to another tab or window, or back.
async function setAway(page: Page, away: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, 'visibilityState', {
      get: () => (hidden ? 'hidden' : 'visible'),
      configurable: true,
    });
    Object.defineProperty(document, 'hidden', { get: () => hidden, configurable: true });
    document.hasFocus = () => !hidden;
    document.dispatchEvent(new Event('visibilitychange'));
  }, away);
}

test('an approval that opens while the page is hidden notifies; clicking focuses the dialog', async ({
  page,
  context,
  launch,
}) => {
  const app = await launch();
  await context.grantPermissions(['notifications']);
  await recordNotifications(page);
  app.model.enqueue(
    loadTools('run_command'),
    callTool('run_command', { command: 'echo first' }),
    callTool('run_command', { command: 'echo second' }),
    say('Both ran.'),
  );
  await openApp(page, app);
  await expect(page).toHaveTitle('Agenvoy');
  await newChat(page);
  await setAway(page, true);
  await send(page, 'Run two commands');

  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect
    .poll(() => notes(page))
    .toEqual([
      {
        title: 'Approval needed: run_command',
        body: 'In chat “Run two commands”. Click to answer.',
        tag: expect.any(String),
        closed: false,
      },
    ]);
  await expect(page).toHaveTitle('(1) Agenvoy');

  // The person comes back through the notification (focus was left elsewhere): the tab is in front and focus is
  // in the dialog.
  await setAway(page, false);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect(dialog.getByRole('button', { name: 'Allow once' })).not.toBeFocused();
  await page.evaluate(() =>
    (window as unknown as { __notes: Array<{ note: Notification }> }).__notes[0]?.note.dispatchEvent(
      new Event('click'),
    ),
  );
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await expect.poll(async () => (await notes(page))[0]?.closed).toBe(true);
  // An item answers only once it has been on screen 500 ms (approval-timing-attack.test.tsx).
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toHaveAttribute('aria-disabled', 'false');
  await page.keyboard.press('Enter');

  // The second approval opens while the page is in front: no notification, only the title.
  await expect(dialog.getByLabel('Arguments', { exact: true })).toContainText('echo second');
  await expect(page).toHaveTitle('(1) Agenvoy');
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toHaveAttribute('aria-disabled', 'false');
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Both ran.');
  await expect(page).toHaveTitle('Agenvoy');
  expect(await notes(page)).toHaveLength(1);
});
