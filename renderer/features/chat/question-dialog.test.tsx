// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DialogRequest } from '../../../preload/contract';
import { QuestionDialog } from './question-dialog';

afterEach(cleanup);

const request: Extract<DialogRequest, { kind: 'question' }> = {
  kind: 'question',
  id: 'q1',
  chatId: 'c1',
  chatTitle: 'Release',
  openedAt: 1,
  questions: [
    { id: 'a', prompt: 'Which branch?', kind: 'single', options: ['main', 'dev'] },
    { id: 'b', prompt: 'Which checks?', kind: 'multiple', options: ['lint', 'tests'] },
    { id: 'c', prompt: 'Notes?', kind: 'text', options: [] },
  ],
};

describe('QuestionDialog', () => {
  it('answers text, single and multiple questions together', async () => {
    const onAnswer = vi.fn(async () => null);
    render(<QuestionDialog request={request} onAnswer={onAnswer} overlay />);
    const answer = screen.getByRole('button', { name: 'Answer' });
    expect(answer).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByLabelText('dev'));
    fireEvent.click(screen.getByLabelText('lint'));
    fireEvent.click(screen.getByLabelText('tests'));
    fireEvent.click(screen.getByLabelText('lint'));
    fireEvent.change(screen.getByLabelText('Notes?'), { target: { value: 'tag v2' } });
    // Answer counts once the dialog has been on screen a moment (dialog-typing-attack.spec.ts).
    await waitFor(() => expect(answer).toHaveProperty('disabled', false), { timeout: 3000 });
    fireEvent.click(answer);
    await waitFor(() =>
      expect(onAnswer).toHaveBeenCalledWith({
        kind: 'answered',
        answers: { a: 'dev', b: ['tests'], c: 'tag v2' },
      }),
    );
  });

  it('can be dismissed', async () => {
    const onAnswer = vi.fn(async () => null);
    render(<QuestionDialog request={request} onAnswer={onAnswer} overlay />);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() =>
      expect(onAnswer).toHaveBeenCalledWith({ kind: 'dismissed', reason: 'the user chose not to answer' }),
    );
  });

  it('opens with the focus on itself for a choice, and takes no answer before it has been on screen', async () => {
    const onAnswer = vi.fn(async () => null);
    const composer = document.createElement('textarea');
    document.body.append(composer);
    composer.focus();
    const choice = { ...request, questions: [request.questions[0]!] };
    render(<QuestionDialog request={choice} onAnswer={onAnswer} overlay />);
    const dialog = screen.getByRole('dialog');
    expect(document.activeElement).toBe(dialog);
    // A choice made and submitted at once (a space and Enter typed on) is not taken.
    fireEvent.click(screen.getByLabelText('main'));
    const answer = screen.getByRole('button', { name: 'Answer' });
    expect(answer).toHaveProperty('disabled', true);
    fireEvent.submit(answer.closest('form')!);
    expect(onAnswer).not.toHaveBeenCalled();
    await waitFor(() => expect(answer).toHaveProperty('disabled', false), { timeout: 3000 });
    fireEvent.submit(answer.closest('form')!);
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith({ kind: 'answered', answers: { a: 'main' } }));
    composer.remove();
  });

  it('says the app asks, with no chat line, when the question is the app’s own (where to send a key)', () => {
    const own = { ...request, chatId: '', chatTitle: '', questions: [request.questions[0]!] };
    render(<QuestionDialog request={own} onAnswer={vi.fn(async () => null)} overlay />);
    expect(screen.getByRole('dialog', { name: 'Agenvoy asks' })).toBeTruthy();
    expect(screen.queryByText(/In chat/)).toBeNull();
  });
});
