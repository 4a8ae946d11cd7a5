// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToolCallView } from '../../../preload/contract';
import { chatFromSnapshot } from '../chat/chat-state';
import { initialAppState, useAppStore } from '../../store/app-store';
import { snapshot, toolCall } from '../../testing/views';
import { fakeApi, fakeDialogApi } from '../../testing/fake-bridge';
import { setBridge } from '../../boot/bridge';
import { ToolCallCard } from './tool-call-card';

function show(call: ToolCallView, extra: Partial<ReturnType<typeof chatFromSnapshot>> = {}) {
  useAppStore.setState({ chat: { ...chatFromSnapshot(snapshot({ toolCalls: [call] })), ...extra } });
  return render(<ToolCallCard callId={call.callId} name={call.tool} />);
}
const cardEl = () => screen.getByRole('group', { name: 'Tool call run_command' });

beforeEach(() => useAppStore.setState(initialAppState, true));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('ToolCallCard', () => {
  it('shows the tool, its source and arguments while it waits for approval', () => {
    show(
      toolCall({
        source: { kind: 'mcp', server: 'github', remoteName: 'x' },
        approval: { state: 'pending', requestedAt: 1 },
      }),
    );
    expect(cardEl().dataset.state).toBe('waiting for approval');
    expect(cardEl().textContent).toContain('MCP: github');
    expect(cardEl().textContent).toContain('"command": "ls"');
  });

  it('counts elapsed time against the limit while running, with live output', () => {
    vi.useFakeTimers({ now: 100_000 });
    show(toolCall({ status: 'running', startedAt: 100_000, limitMs: 30_000 }), {
      progress: {
        call_1: {
          elapsedMs: 0,
          at: 100_000,
          message: 'working',
          progress: 2,
          total: 4,
          output: 'line one\n',
        },
      },
    });
    const timer = screen.getByRole('timer');
    expect(timer.textContent).toBe('0 ms of 30 s · 30 s left');
    act(() => void vi.advanceTimersByTime(12_000));
    expect(timer.textContent).toBe('12 s of 30 s · 18 s left');
    expect(screen.getByRole('progressbar', { name: 'run_command: time used' })).toHaveProperty(
      'value',
      12_000,
    );
    expect(cardEl().textContent).toContain('line one');
    expect(cardEl().textContent).toContain('working');
  });

  it('names every outcome, and a timed-out call keeps its limit in view', () => {
    const cases: Array<[Partial<ToolCallView>, string]> = [
      [{ outcome: 'ok', result: 'fine' }, 'ok'],
      [{ outcome: 'error', code: 'script_error', result: 'bad' }, 'error (script_error)'],
      [
        { outcome: 'timed_out', result: 'timed out after 30 s', limitMs: 30_000, durationMs: 30_010 },
        'timed out',
      ],
      [{ outcome: 'cancelled', result: 'cancelled' }, 'cancelled'],
      [{ outcome: 'denied', result: 'denied by the user' }, 'denied'],
    ];
    for (const [patch, label] of cases) {
      const { unmount } = show(toolCall({ status: 'finished', durationMs: 5, ...patch }));
      expect(cardEl().dataset.state).toBe(label);
      if (label === 'timed out') expect(screen.getByRole('timer').textContent).toBe('30 s of 30 s');
      unmount();
    }
  });

  it('shows a call answered with its schema as a quiet step with the arguments the model sent', () => {
    const schema = '{"properties":{"command":{"type":"string"}},"required":["command"],"type":"object"}';
    show(
      toolCall({
        status: 'finished',
        outcome: 'error',
        code: 'not_loaded',
        args: '{"cmd":"ls -la"}',
        result: `run_command was not run: its schema was not loaded in this chat. It is loaded now; call run_command again with arguments that match this schema: ${schema}`,
        durationMs: 0,
      }),
    );
    expect(cardEl().dataset.state).toBe('schema loaded; the model retries');
    expect(cardEl().className).toContain('tone-muted');
    expect(cardEl().className).not.toContain('tone-error');
    // Folded: its one line is what the model sent, not the schema it got back.
    expect(cardEl().querySelector('.tool-summary')?.textContent).toBe('{"cmd":"ls -la"}');
    expect(cardEl().querySelector('.tool-card-body')?.hasAttribute('hidden')).toBe(true);
    fireEvent.click(screen.getByRole('button', { expanded: false }));
    expect(cardEl().querySelector('.tool-args')?.textContent).toBe('{\n  "cmd": "ls -la"\n}');
  });

  it('folds a finished ok call to a summary and opens on request', () => {
    show(toolCall({ status: 'finished', outcome: 'ok', result: 'first line\nsecond line', durationMs: 12 }));
    const toggle = screen.getByRole('button', { expanded: false });
    expect(cardEl().querySelector('.tool-summary')?.textContent).toBe('first line');
    expect(cardEl().querySelector('.tool-card-body')?.hasAttribute('hidden')).toBe(true);
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { expanded: true })).toBeTruthy();
    expect(cardEl().querySelector('.tool-result')?.textContent).toBe('first line\nsecond line');
  });

  it('shows a draft while the model is still streaming the call', () => {
    useAppStore.setState({ chat: { ...chatFromSnapshot(snapshot()), draftCalls: ['call_9'] } });
    render(<ToolCallCard callId="call_9" name="run_command" />);
    expect(cardEl().textContent).toContain('preparing');
  });

  it('shows the start of a long result and how much is left, and the whole on request', async () => {
    const whole = `${'a'.repeat(10)}${'b'.repeat(50)}`;
    const api = fakeApi({
      'chats.call': ({ chatId, callId }) =>
        chatId === 'c1' && callId === 'call_1'
          ? toolCall({ status: 'finished', outcome: 'error', code: 'x', result: whole, durationMs: 5 })
          : { ok: false, error: { code: 'not_found', message: 'no such call' } },
    });
    setBridge({ agenvoy: api, agenvoyDialog: fakeDialogApi([]) });
    show(
      toolCall({
        status: 'finished',
        outcome: 'error',
        code: 'x',
        result: 'a'.repeat(10),
        resultCut: 50,
        durationMs: 5,
      }),
    );
    expect(cardEl().querySelector('.tool-result')?.textContent).toBe('a'.repeat(10));
    expect(cardEl().textContent).toContain('… 50 more characters');
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    await vi.waitFor(() => expect(cardEl().querySelector('.tool-result')?.textContent).toBe(whole));
    expect(screen.queryByRole('button', { name: 'Show all' })).toBeNull();
    expect(api.calls).toEqual([{ channel: 'chats.call', request: { chatId: 'c1', callId: 'call_1' } }]);
  });

  it('shows long arguments as text with what is left, and says so when the whole cannot be had', async () => {
    setBridge({ agenvoy: fakeApi({}), agenvoyDialog: fakeDialogApi([]) });
    show(toolCall({ args: '{"content":"xxxx', argsCut: 1000 }));
    expect(cardEl().querySelector('.tool-args')?.textContent).toBe('{"content":"xxxx');
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    await vi.waitFor(() =>
      expect(useAppStore.getState().notices.at(-1)?.message).toContain('Could not show the whole call'),
    );
    expect(cardEl().textContent).toContain('… 1000 more characters');
  });
});
