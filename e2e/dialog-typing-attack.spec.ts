// Typing through the agent's other dialogs (docs/interface.md, "Dialogs"): as with approvals
// (approval-typing-attack.spec.ts), the person writes their next message while the agent works and a dialog opens in
// the middle of it. ask_user opened with the focus on its first option, so the next space checked it and Enter
// answered: the model read "→ Yes, force-push to main" from a dialog nobody read. The masked secret prompt opened with
// the focus in its field, so the next words went in and Enter stored them as the key. Keys typed on must answer
// neither; a deliberate answer still works.
import type { ScriptedResponse } from '../main/agent/providers/testing/scripted-server';
import { callTool, loadTools, say, toolMessages } from './support/model-script';
import { canaryTool } from './support/script-tools';
import { expect, newChat, openApp, send, test } from './support/fixtures';

// The answer starts 2 s after the person's message: the dialog opens while they are typing on.
function arrivingLater(response: ScriptedResponse): ScriptedResponse {
  const [first, ...rest] = response.events ?? [];
  return first ? { ...response, events: [{ ...first, delayMs: 2000 }, ...rest] } : response;
}

const TYPED_ON = 'while you do that also check why the build is slow on my machine ok';

test('typing on while ask_user opens never answers it', async ({ page, launch }) => {
  const app = await launch();
  app.model.enqueue(
    arrivingLater(
      callTool('ask_user', {
        questions: [
          {
            prompt: 'Force-push the rewritten history to origin/main (this deletes the remote commits)?',
            kind: 'single',
            options: ['Yes, force-push to main', 'No'],
          },
        ],
      }),
    ),
    say('Done.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Tidy up the repo please');
  const composer = page.getByLabel('Message');
  await composer.click();
  // The person goes on writing, a key every 60 ms, ending with Enter, as they would to send it.
  await page.keyboard.type(TYPED_ON, { delay: 60 });
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await page.waitForTimeout(500);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Yes, force-push to main')).not.toBeChecked();
  expect(app.model.requests).toHaveLength(1);
  // A deliberate answer still works.
  await dialog.getByLabel('No').check();
  await dialog.getByRole('button', { name: 'Answer' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => app.model.requests.length).toBe(2);
  expect(toolMessages(app.model.requests[1]?.body).join('\n')).toContain('→ No');
});

test('typing on while the masked prompt opens never stores the words as the key', async ({
  page,
  launch,
}) => {
  const app = await launch({ prepare: ({ home }) => canaryTool(home) });
  app.model.enqueue(
    loadTools('script_read_canary'),
    arrivingLater(callTool('script_read_canary', {})),
    say('Checked.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Check the canary key');
  await page.getByLabel('Message').click();
  await page.keyboard.type(TYPED_ON, { delay: 60 });
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await page.waitForTimeout(500);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('CANARY_KEY')).toHaveValue('');
  // Cancelled on purpose: nothing was stored, and the call says the key is missing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
