// Settings → Updates in browser mode: the app says it cannot update itself here, and the setting it keeps in
// settings.json is the one the desktop app reads (docs/release.md, "Updates").
import fs from 'node:fs';
import path from 'node:path';
import { expect, openApp, test } from './support/fixtures';

test('browser mode says updates come with npm, keeps the setting, and never offers a restart', async ({
  page,
  launch,
}) => {
  const app = await launch();
  await openApp(page, app);
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Updates' });
  await expect(section.getByRole('status', { name: 'Update status' })).toContainText(
    'updates are not available here (browser mode: update with npm',
  );
  const box = section.getByRole('checkbox', { name: /Check for updates/ });
  await expect(box).toBeChecked();
  // The box follows main's answer (it shows what settings.json holds), so it changes once main saved.
  await box.click();
  await expect(box).not.toBeChecked();
  await expect(section.getByRole('status', { name: 'Update status' })).toContainText('not available here');
  const saved = () =>
    (
      JSON.parse(fs.readFileSync(path.join(app.home, 'desktop', 'settings.json'), 'utf8')) as {
        autoUpdate?: boolean;
      }
    ).autoUpdate;
  expect(saved()).toBe(false);
  await box.click();
  await expect(box).toBeChecked();
  expect(saved()).toBe(true);
  await expect(page.getByRole('button', { name: 'Restart to update' })).toHaveCount(0);
});
