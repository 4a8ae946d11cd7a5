// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DialogRequest } from '../../../preload/contract';
import { initialAppState, useAppStore } from '../../store/app-store';
import { setBridge } from '../../boot/bridge';
import { fakeDialogApi } from '../../testing/fake-bridge';
import { DialogHost } from '../../app/dialogs/dialog-host';

const request: Extract<DialogRequest, { kind: 'trust' }> = {
  kind: 'trust',
  id: 't1',
  folder: '/work/repo',
  tools: [
    { name: 'script_deploy', alwaysAllow: true, secrets: ['DEPLOY_TOKEN'], change: null },
    { name: 'script_lint', alwaysAllow: false, secrets: [], change: null },
  ],
  openedAt: 1,
};

beforeEach(() => useAppStore.setState({ ...initialAppState, dialogs: [request] }, true));
afterEach(cleanup);

describe('TrustDialog', () => {
  it('names the folder and what trusting gives each tool; Cancel has the focus', () => {
    setBridge({ agenvoyDialog: fakeDialogApi([request]) });
    render(<DialogHost />);
    const dialog = screen.getByRole('dialog', { name: 'Trust this folder?' });
    expect(dialog.textContent).toContain('/work/repo');
    const tools = screen.getByRole('list', { name: 'Its workspace tools' });
    expect(tools.textContent).toContain('script_deploy — runs without asking (always_allow)');
    expect(tools.textContent).toContain('receives the secrets DEPLOY_TOKEN');
    expect(tools.textContent).toContain('script_lint — still asks; no secrets');
    expect(screen.getByRole('note').textContent).toContain('a cloned repository is a stranger’s');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBe(document.activeElement);
  });

  it('sends "trust" only for the Trust button; Cancel and Escape send cancel', async () => {
    for (const [act_, expected] of [
      [() => fireEvent.click(screen.getByRole('button', { name: 'Trust' })), 'trust'],
      [() => fireEvent.click(screen.getByRole('button', { name: 'Cancel' })), 'cancel'],
      [() => fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' }), 'cancel'],
    ] as const) {
      useAppStore.setState({ ...initialAppState, dialogs: [request] }, true);
      const api = fakeDialogApi([request]);
      setBridge({ agenvoyDialog: api });
      render(<DialogHost />);
      act_();
      await act(async () => {});
      expect(api.answers).toEqual([{ kind: 'trust', request: { id: 't1', answer: { kind: expected } } }]);
      expect(screen.queryByRole('dialog')).toBeNull();
      cleanup();
    }
  });

  it('says trusting covers the tools as they are now; a folder without tools does not promise later ones', () => {
    setBridge({ agenvoyDialog: fakeDialogApi([request]) });
    render(<DialogHost />);
    expect(screen.getByRole('dialog').textContent).toContain(
      'a tool added or changed later asks on every call and gets no secrets until you trust the folder again',
    );
    cleanup();
    useAppStore.setState({ dialogs: [{ ...request, tools: [] }] });
    setBridge({ agenvoyDialog: fakeDialogApi() });
    render(<DialogHost />);
    expect(screen.getByRole('dialog').textContent).toContain('It has no workspace tools now.');
    expect(screen.getByRole('dialog').textContent).not.toContain('will be trusted too');
  });

  it('marks the tools that are new or changed since the person last trusted the folder', () => {
    useAppStore.setState({
      dialogs: [
        {
          ...request,
          tools: [
            { name: 'script_deploy', alwaysAllow: true, secrets: ['DEPLOY_TOKEN'], change: 'new' },
            { name: 'script_lint', alwaysAllow: false, secrets: [], change: 'changed' },
            { name: 'script_fmt', alwaysAllow: false, secrets: [], change: null },
          ],
        },
      ],
    });
    setBridge({ agenvoyDialog: fakeDialogApi() });
    render(<DialogHost />);
    expect(screen.getByRole('status').textContent).toContain(
      'You trusted this folder before; 2 of its tools are new or changed since',
    );
    const tools = screen.getByRole('list', { name: 'Its workspace tools' });
    expect(tools.textContent).toContain('script_deploy (new since you trusted this folder)');
    expect(tools.textContent).toContain(
      'script_lint (it or a file beside it changed since you trusted this folder)',
    );
    expect(tools.textContent).not.toContain('script_fmt (');
  });
});
