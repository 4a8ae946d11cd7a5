// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DialogRequest } from '../../../preload/contract';
import { initialAppState, useAppStore } from '../../store/app-store';
import { setBridge } from '../../boot/bridge';
import { fakeDialogApi } from '../../testing/fake-bridge';
import { DialogHost } from '../../app/dialogs/dialog-host';

const CANARY = 'sk-canary-77c1d0a4e2';
const request: DialogRequest = {
  kind: 'secret',
  id: 's1',
  key: 'GITHUB_TOKEN',
  question: 'The GitHub server needs a token to list issues.',
  forTool: 'mcp__github__list_issues',
  openedAt: 1,
};

afterEach(cleanup);

// Save counts once the prompt has been on screen a moment (e2e/dialog-typing-attack.spec.ts).
const armed = () =>
  waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false), {
    timeout: 3000,
  });

describe('SecretDialog', () => {
  it('names the key and why, masks the field, and never keeps the value', async () => {
    useAppStore.setState({ ...initialAppState, dialogs: [request] }, true);
    const api = fakeDialogApi([request]);
    setBridge({ agenvoyDialog: api });
    render(<DialogHost />);
    const dialog = screen.getByRole('dialog', { name: 'Secret needed' });
    expect(dialog.textContent).toContain('The GitHub server needs a token');
    expect(dialog.textContent).toContain('mcp__github__list_issues');
    const field = screen.getByLabelText('GITHUB_TOKEN') as HTMLInputElement;
    expect(field.type).toBe('password');
    expect(field.autocomplete).toBe('new-password');

    fireEvent.change(field, { target: { value: CANARY } });
    expect(JSON.stringify(useAppStore.getState())).not.toContain(CANARY);
    await armed();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // Cleared at once, before main has even answered.
    expect(field.value).toBe('');
    await waitFor(() =>
      expect(api.answers).toEqual([
        { kind: 'secret', request: { id: 's1', answer: { kind: 'value', value: CANARY } } },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(JSON.stringify(useAppStore.getState())).not.toContain(CANARY);
    expect(document.body.innerHTML).not.toContain(CANARY);
  });

  it('Cancel clears what was typed and declines', async () => {
    useAppStore.setState({ ...initialAppState, dialogs: [request] }, true);
    const api = fakeDialogApi([request]);
    setBridge({ agenvoyDialog: api });
    render(<DialogHost />);
    const field = screen.getByLabelText('GITHUB_TOKEN') as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'half typed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(field.value).toBe('');
    await waitFor(() =>
      expect(api.answers).toEqual([{ kind: 'secret', request: { id: 's1', answer: { kind: 'cancel' } } }]),
    );
  });

  it('refuses an empty value without sending anything', async () => {
    useAppStore.setState({ ...initialAppState, dialogs: [request] }, true);
    const api = fakeDialogApi([request]);
    setBridge({ agenvoyDialog: api });
    render(<DialogHost />);
    await armed();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe('Type the value first.');
    expect(api.answers).toEqual([]);
  });

  it('opens with the focus on itself, and a value submitted before it has been on screen is not sent', async () => {
    useAppStore.setState({ ...initialAppState, dialogs: [request] }, true);
    const api = fakeDialogApi([request]);
    setBridge({ agenvoyDialog: api });
    render(<DialogHost />);
    expect(document.activeElement).toBe(screen.getByRole('dialog'));
    const field = screen.getByLabelText('GITHUB_TOKEN') as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'words of my next message' } });
    fireEvent.submit(field.closest('form')!);
    expect(api.answers).toEqual([]);
    await armed();
    fireEvent.change(field, { target: { value: CANARY } });
    fireEvent.submit(field.closest('form')!);
    await waitFor(() =>
      expect(api.answers).toEqual([
        { kind: 'secret', request: { id: 's1', answer: { kind: 'value', value: CANARY } } },
      ]),
    );
  });
});
