// Attachments end to end (docs/attachments.md): an image dropped on the composer waits as a chip with its thumbnail,
// goes with the message, reaches the model as an image block and is copied into the chat's workspace; a file that
// cannot go is refused in words — by the composer before sending, and by main when only the bytes tell.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { pngBytes } from '../main/agent/testing/attachment-samples';
import { say } from './support/model-script';
import { expect, newChat, openApp, test } from './support/fixtures';

/** Drops files on the composer as a file manager would: dragover, then drop, with a real DataTransfer. */
async function dropFiles(
  page: Page,
  files: Array<{ name: string; type: string; bytes: Buffer }>,
): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    (list) => {
      const transfer = new DataTransfer();
      for (const file of list) {
        const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      return transfer;
    },
    files.map((file) => ({ name: file.name, type: file.type, base64: file.bytes.toString('base64') })),
  );
  const composer = page.locator('form.composer');
  await composer.dispatchEvent('dragover', { dataTransfer });
  await composer.dispatchEvent('drop', { dataTransfer });
}

test('a dropped image goes to the model as an image block and into the workspace', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  app.model.enqueue(say('A small gray picture.'));
  await openApp(page, app);
  await newChat(page);
  const png = pngBytes(64, 48);
  await dropFiles(page, [{ name: 'gray.png', type: 'image/png', bytes: png }]);
  const chips = page.getByRole('list', { name: 'Attached files' });
  await expect(chips.getByRole('listitem')).toHaveCount(1);
  await expect(chips).toContainText('gray.png');
  await expect(chips.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
  await shot(page, 'attachment-chip');

  await page.getByLabel('Message').fill('What is in this picture?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'A small gray picture.',
  );

  // The request the model received carries the image as an image block, after the typed text and its line.
  const request = app.model.requests.at(-1)?.body;
  const user = request.messages.find((m: { role: string }) => m.role === 'user');
  expect(user.content[0]).toEqual({ type: 'text', text: 'What is in this picture?' });
  expect(user.content[1].text).toBe(
    `Attachment "gray.png" (image/png, ${png.length} bytes, 64×48 px) is saved in the workspace as "attachments/gray.png"; the image follows.`,
  );
  expect(user.content[2]).toEqual({
    type: 'image_url',
    image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
  });
  expect(fs.readFileSync(path.join(app.workspace, 'attachments', 'gray.png'))).toEqual(png);
  // The message shows the file it carried, the composer is empty again, and a reload shows it from the store.
  const sent = page.getByRole('article', { name: 'You' }).last();
  await expect(sent).toContainText('What is in this picture?');
  await expect(sent.getByRole('list', { name: 'Attached files' })).toContainText('gray.png (image/png)');
  await expect(page.getByRole('list', { name: 'Attached files' })).toHaveCount(1);
  await shot(page, 'attachment-sent');
  await page.reload();
  await expect(page.getByRole('article', { name: 'You' }).last().getByRole('listitem')).toHaveAttribute(
    'title',
    'attachments/gray.png',
  );
});

test('files that cannot go are refused in words, by the composer and by main', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  await openApp(page, app);
  await newChat(page);
  // Too big by its claimed type: the composer says so and never holds it.
  const big = pngBytes(16, 16, 4_000_000);
  await dropFiles(page, [{ name: 'huge.png', type: 'image/png', bytes: big }]);
  await expect(page.getByRole('alert').filter({ hasText: 'huge.png' })).toHaveText(
    '"huge.png" is a 3.81 MB image; an image may be at most 3.75 MB.',
  );
  await expect(page.getByRole('list', { name: 'Attached files' })).toHaveCount(0);

  // The same image with no type: only its bytes tell, so main refuses the send and nothing is copied.
  await dropFiles(page, [{ name: 'disguised.bin', type: '', bytes: big }]);
  await expect(page.getByRole('list', { name: 'Attached files' })).toContainText('disguised.bin');
  await page.getByLabel('Message').fill('look');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(
    page.getByText(/Not sent: "disguised\.bin" is a 3\.81 MB image; an image may be at most 3\.75 MB/),
  ).toBeVisible();
  await shot(page, 'attachment-refused');
  expect(app.model.requests).toHaveLength(0);
  expect(fs.existsSync(path.join(app.workspace, 'attachments'))).toBe(false);
  // Nothing is lost: the text and the file are still in the composer.
  await expect(page.getByLabel('Message')).toHaveValue('look');
  await expect(page.getByRole('button', { name: 'Remove disguised.bin' })).toBeVisible();
});
