// Usage, cost and reasoning in browser mode (docs/agent-loop.md, "Usage and cost", "Reasoning"): the chat's
// Reasoning picker changes what the next request asks; reasoning streams and folds under the answer; the usage line
// appears under the turn with the server's figures, and a price saved in Settings gives the next turn its cost.
import fs from 'node:fs';
import path from 'node:path';
import type { ScriptedResponse } from '../main/agent/providers/testing/scripted-server';
import { openAiEvents } from '../main/agent/providers/testing/openai-test-server';
import { expect, newChat, openApp, send, test } from './support/fixtures';

function reasonThenSay(
  reasoning: string,
  text: string,
  usage: { prompt: number; completion: number; cached?: number },
) {
  return {
    events: openAiEvents([{ reasoning }, { text }], { usage }),
    delayMs: 5,
  } satisfies ScriptedResponse;
}

test('reasoning picker, reasoning under the answer, the usage line and its cost', async ({
  page,
  launch,
  shot,
}) => {
  const app = await launch();
  await openApp(page, app);
  await newChat(page);

  // The chat's own level goes into the next request as reasoning_effort.
  await page.getByRole('combobox', { name: 'Reasoning' }).selectOption('high');
  app.model.enqueue(
    reasonThenSay('The person asks for a sum. 2 + 2 = 4.', 'It is 4.', {
      prompt: 1200,
      completion: 30,
      cached: 1000,
    }),
  );
  await send(page, 'What is 2 + 2?');
  const answer = page.getByRole('article', { name: 'Assistant' }).last();
  await expect(answer).toContainText('It is 4.');
  expect(app.model.requests.at(-1)?.body.reasoning_effort).toBe('high');

  // Reasoning is there, folded once the answer came, and opens by keyboard.
  const reasoning = answer.getByTestId('reasoning');
  await expect(reasoning).not.toHaveAttribute('open', '');
  await reasoning.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(reasoning).toContainText('2 + 2 = 4.');

  // Under the turn: 200 uncached in, 1,000 cached, 30 out; test-model has no price, so no cost yet.
  const usage = page.getByRole('note', { name: 'Usage', exact: true }).last();
  await expect(usage).toContainText('200 in');
  await expect(usage).toContainText('1,000 cached');
  await expect(usage).toContainText('30 out');
  await expect(usage).not.toContainText('$');
  await shot(page, 'usage-and-reasoning');

  // A price for test-model, saved in Settings, prices the next turn: (100 × 2 + 20 × 8) / 1e6 = $0.00036, shown
  // to a tenth of a cent.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Add a model' }).click();
  const prices = page.getByRole('table', { name: 'Model prices' });
  const rows = await prices.getByRole('textbox', { name: /^Model, row \d+$/ }).count();
  await page.getByRole('textbox', { name: `Model, row ${rows}` }).fill('test-model');
  await page.getByRole('textbox', { name: `Input, row ${rows}` }).fill('2');
  await page.getByRole('textbox', { name: `Output, row ${rows}` }).fill('8');
  await page.getByRole('button', { name: 'Save prices' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Prices not saved' })).toHaveCount(0);
  await expect
    .poll(() => fs.readFileSync(path.join(app.home, 'desktop', 'settings.json'), 'utf8'))
    .toContain('"prices"');
  await page.getByRole('button', { name: 'Chat', exact: true }).click();

  await page.getByRole('combobox', { name: 'Reasoning' }).selectOption('off');
  app.model.enqueue(reasonThenSay('Short.', 'Yes.', { prompt: 100, completion: 20 }));
  await send(page, 'Again?');
  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText('Yes.');
  expect(app.model.requests.at(-1)?.body).not.toHaveProperty('reasoning_effort');
  await expect(page.getByRole('note', { name: 'Usage', exact: true }).last()).toContainText('$0.0004');
  // The chat's total counts both turns.
  await expect(page.getByTestId('chat-usage')).toContainText('300 in');

  // After a reload everything is read back from the store.
  await page.reload();
  await expect(page.getByRole('note', { name: 'Usage', exact: true }).first()).toContainText('1,000 cached');
  await expect(page.getByRole('note', { name: 'Usage', exact: true }).last()).toContainText('$0.0004');
  await expect(page.getByRole('combobox', { name: 'Reasoning' })).toHaveValue('off');
});
