// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxStatusView } from '../../../preload/contract';
import { initialAppState, useAppStore } from '../../store/app-store';
import { setBridge } from '../../boot/bridge';
import { fakeApi } from '../../testing/fake-bridge';
import { SandboxSection } from './sandbox-section';

beforeEach(() => useAppStore.setState(initialAppState, true));
afterEach(cleanup);

function show(status: SandboxStatusView) {
  setBridge({ agenvoy: fakeApi({ 'sandbox.status': () => status }) });
  render(<SandboxSection />);
  return screen.getByRole('region', { name: 'Sandbox' });
}

describe('SandboxSection', () => {
  it('shows a ready sandbox: its backend and every policy line', async () => {
    const region = show({
      state: 'ready',
      backend: 'bubblewrap',
      policy: ['Commands write only in the workspace.', 'Secret locations cannot be read.'],
    });
    const policy = await screen.findByRole('list', { name: 'What a sandboxed command may do' });
    expect(region.textContent).toContain('ready — commands and script tools run in the OS sandbox');
    expect(region.textContent).toContain('bubblewrap');
    expect([...policy.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Commands write only in the workspace.',
      'Secret locations cannot be read.',
    ]);
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('says in words why there is none and what that means for approvals', async () => {
    const region = show({
      state: 'unavailable',
      reason: 'bubblewrap (bwrap) is not installed',
      consequence: 'Commands run unconfined: every command asks.',
    });
    const why = await screen.findByRole('note', { name: 'Why there is no sandbox' });
    expect(why.textContent).toContain('No OS sandbox can start here: bubblewrap (bwrap) is not installed');
    expect(region.textContent).toContain('unavailable — commands run unconfined');
    expect(region.textContent).toContain('Commands run unconfined: every command asks.');
  });
});
