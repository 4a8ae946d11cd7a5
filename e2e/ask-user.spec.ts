// ask_user in browser mode: the questions open as an in-page dialog and the answers reach the model.
import { callTool, say, toolMessages } from './support/model-script';
import { expect, newChat, openApp, send, test } from './support/fixtures';

test('ask_user is answered in its dialog and the model gets the answers', async ({ page, launch, shot }) => {
  const app = await launch();
  app.model.enqueue(
    callTool('ask_user', {
      questions: [
        { prompt: 'Which branch should I use?', kind: 'single', options: ['main', 'dev'] },
        { prompt: 'Which checks?', kind: 'multiple', options: ['lint', 'tests', 'bench'] },
        { prompt: 'Anything else?', kind: 'text' },
      ],
    }),
    say('Using dev with lint and tests.'),
  );
  await openApp(page, app);
  await newChat(page);
  await send(page, 'Prepare a release');

  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Which branch should I use?');
  await expect(dialog.getByRole('button', { name: 'Answer' })).toBeDisabled();
  await dialog.getByLabel('dev').check();
  await dialog.getByLabel('lint').check();
  await dialog.getByLabel('tests').check();
  await dialog.getByLabel('Anything else?').fill('tag it v2');
  await shot(page, 'question-dialog');
  await dialog.getByRole('button', { name: 'Answer' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByRole('article', { name: 'Assistant' }).last()).toContainText(
    'Using dev with lint and tests.',
  );
  const answers = toolMessages(app.model.requests[1]?.body).join('\n');
  expect(answers).toContain('dev');
  expect(answers).toContain('tests');
  expect(answers).toContain('tag it v2');
});
