// @vitest-environment jsdom
// "Restart to update" and the Updates section over the bridge: shown only when main says the restart may happen,
// following main's updates.changed events, asking main to restart or to turn updates off.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UpdateView } from '../../../preload/contract';
import { setBridge } from '../../boot/bridge';
import { initialAppState, useAppStore } from '../../store/app-store';
import { connectStore } from '../../store/connect-store';
import type { FakeApi } from '../../testing/fake-bridge';
import { fakeApi } from '../../testing/fake-bridge';
import { UpdateNotice } from './update-notice';
import { UpdateSection } from './update-section';

const ready = (restartable: boolean): UpdateView => ({
  enabled: true,
  current: '0.1.0',
  status: { state: 'ready', version: '0.2.0', restartable },
});

let api: FakeApi;
let disconnect: () => void;
let enabled: boolean;

beforeEach(() => {
  useAppStore.setState(initialAppState, true);
  enabled = true;
  api = fakeApi({
    'updates.status': () => ready(false),
    'updates.restart': () => ({ restarting: false, reason: 'a turn or a background task is running' }),
    'updates.setEnabled': ({ enabled: on }) => {
      enabled = on;
      return { enabled, current: '0.1.0', status: on ? ready(true).status : { state: 'off' } };
    },
  });
  setBridge({ agenvoy: api });
  disconnect = connectStore();
});
afterEach(() => {
  disconnect();
  cleanup();
});

describe('UpdateNotice', () => {
  it('stays hidden while a turn or task runs, and appears when main says the restart may happen', async () => {
    await act(() => useAppStore.getState().loadUpdates());
    render(<UpdateNotice />);
    expect(screen.queryByRole('button', { name: 'Restart to update' })).toBeNull();
    act(() => api.emit('updates.changed', ready(true)));
    const button = screen.getByRole('button', { name: 'Restart to update' });
    expect(button.getAttribute('title')).toBe('Agenvoy 0.2.0 is downloaded');
    act(() => api.emit('updates.changed', ready(false)));
    expect(screen.queryByRole('button', { name: 'Restart to update' })).toBeNull();
  });

  it('asks main to restart, and says why when main refuses', async () => {
    act(() => api.emit('updates.changed', ready(true)));
    render(<UpdateNotice />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Restart to update' })));
    expect(api.calls.map((call) => call.channel)).toContain('updates.restart');
    expect(useAppStore.getState().notices.at(-1)?.message).toBe(
      'Not restarting: a turn or a background task is running.',
    );
  });
});

describe('UpdateSection', () => {
  it('turns updates off and on through main, and says where they stand', async () => {
    await act(() => useAppStore.getState().loadUpdates());
    render(<UpdateSection />);
    const box = screen.getByRole('checkbox', { name: /Check for updates/ });
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole('status', { name: 'Update status' }).textContent).toBe(
      'Version 0.1.0: 0.2.0 is ready; the restart is offered once no turn or task runs.',
    );
    await act(async () => fireEvent.click(box));
    expect(api.calls.at(-1)).toEqual({ channel: 'updates.setEnabled', request: { enabled: false } });
    expect(enabled).toBe(false);
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole('status', { name: 'Update status' }).textContent).toBe(
      'Version 0.1.0: updates are turned off.',
    );
  });

  it('says why a host cannot update itself', () => {
    act(() =>
      api.emit('updates.changed', {
        enabled: true,
        current: '0.1.0',
        status: { state: 'unsupported', reason: 'browser mode: update with npm (docs/hosts.md)' },
      }),
    );
    render(<UpdateSection />);
    expect(screen.getByRole('status', { name: 'Update status' }).textContent).toBe(
      'Version 0.1.0: updates are not available here (browser mode: update with npm (docs/hosts.md)).',
    );
  });
});
