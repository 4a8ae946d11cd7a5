// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialAppState, useAppStore } from '../../store/app-store';
import { setBridge } from '../../boot/bridge';
import { fakeApi } from '../../testing/fake-bridge';
import { task } from '../../testing/views';
import { TasksPanel } from './tasks-panel';

beforeEach(() => useAppStore.setState(initialAppState, true));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('TasksPanel', () => {
  it('is the "Background tasks" region with live rows and Cancel', async () => {
    vi.useFakeTimers({ now: 50_000 });
    const api = fakeApi({ 'tasks.cancel': () => ({ cancelled: true }) });
    setBridge({ agenvoy: api });
    useAppStore
      .getState()
      .taskChanged(task({ id: 't1', startedAt: 50_000, limitMs: 60_000, outputTail: 'tick 1\ntick 2' }));
    useAppStore.getState().taskChanged(
      task({
        id: 't2',
        tool: 'background_subagents',
        status: 'succeeded',
        startedAt: 0,
        endedAt: 4000,
        result: 'all done',
      }),
    );
    render(<TasksPanel />);
    const region = screen.getByRole('region', { name: 'Background tasks' });
    const [newest, older] = within(region).getAllByRole('listitem');
    expect(newest?.textContent).toContain('background_subagents');
    expect(older?.textContent).toContain('tick 2');
    act(() => void vi.advanceTimersByTime(10_000));
    expect(within(older as HTMLElement).getByRole('timer').textContent).toBe(
      '10 s of 1 min 00 s · 50 s left',
    );
    expect(within(newest as HTMLElement).queryByRole('button', { name: 'Cancel' })).toBeNull();
    fireEvent.click(within(older as HTMLElement).getByRole('button', { name: 'Cancel' }));
    await act(async () => {});
    expect(api.calls).toEqual([{ channel: 'tasks.cancel', request: { taskId: 't1' } }]);
  });

  it('says when there are none', () => {
    render(<TasksPanel />);
    expect(screen.getByRole('region', { name: 'Background tasks' }).textContent).toContain(
      'No background tasks.',
    );
  });
});
