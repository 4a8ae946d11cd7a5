// @vitest-environment jsdom
// The chat's reasoning and usage against a fake main: reasoning streams live and folds away, each turn gets one
// usage line summing its rounds (unknown counts stay unknown), the bar carries the chat's total and its reasoning.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatEvent, MessageView } from '../../../preload/contract';
import { setBridge } from '../../boot/bridge';
import { initialAppState, useAppStore } from '../../store/app-store';
import { connectStore } from '../../store/connect-store';
import type { FakeApi } from '../../testing/fake-bridge';
import { fakeApi } from '../../testing/fake-bridge';
import {
  assistantMessage,
  chatSummary,
  roundUsage,
  settingsView,
  snapshot,
  userMessage,
} from '../../testing/views';
import { ChatBar } from './chat-bar';
import { MessageList } from './message-list';

let api: FakeApi;
let disconnect: () => void;

async function openWith(messages: MessageView[]) {
  api = fakeApi({
    'chats.open': ({ chatId }) => snapshot({ chat: chatSummary({ id: chatId }), messages }),
    'settings.get': () => settingsView({ reasoning: 'medium' }),
    'chats.setReasoning': ({ chatId, reasoning }) => chatSummary({ id: chatId, reasoning }),
  });
  setBridge({ agenvoy: api });
  disconnect = connectStore();
  await useAppStore.getState().loadSettings();
  await useAppStore.getState().openChat('c1');
  render(
    <>
      <ChatBar />
      <MessageList />
    </>,
  );
}
const emit = (event: ChatEvent) => act(() => api.emit('chat.event', event));
const lines = () => screen.queryAllByRole('note', { name: 'Usage' }).map((n) => n.textContent);

beforeEach(() => useAppStore.setState(initialAppState, true));
afterEach(() => {
  disconnect();
  cleanup();
});

describe('reasoning', () => {
  it('shows the reasoning live while it streams, then folds it under the answer', async () => {
    await openWith([userMessage({ id: 1 })]);
    emit({ type: 'turn.started', chatId: 'c1', turnId: 't' });
    emit({ type: 'message.started', chatId: 'c1', messageId: 2, round: 1 });
    emit({ type: 'reasoning.delta', chatId: 'c1', messageId: 2, delta: 'The user greets; ' });
    emit({ type: 'reasoning.delta', chatId: 'c1', messageId: 2, delta: 'greet back.' });
    const reasoning = await screen.findByTestId('reasoning');
    await waitFor(() => expect(reasoning.textContent).toContain('The user greets; greet back.'));
    expect(reasoning).toHaveProperty('open', true);
    expect(within(reasoning).getByText('Reasoning…').tagName).toBe('SUMMARY');

    emit({ type: 'text.delta', chatId: 'c1', messageId: 2, delta: 'Hello!' });
    const message = screen.getByRole('article', { name: 'Assistant' });
    await waitFor(() => expect(message.textContent).toContain('Hello!'));
    // The answer has begun: the reasoning folds, still there to open, and sits under the answer.
    expect(reasoning).toHaveProperty('open', false);
    expect(within(reasoning).getByText('Reasoning').tagName).toBe('SUMMARY');
    expect(message.textContent?.indexOf('Hello!')).toBeLessThan(
      message.textContent?.indexOf('Reasoning') ?? -1,
    );
    emit({ type: 'message.finished', chatId: 'c1', messageId: 2, status: 'complete' });
    expect(screen.getByTestId('reasoning')).toHaveProperty('open', false);
  });

  it('stays open once the person opened it, even when the model goes back to reasoning', async () => {
    await openWith([userMessage({ id: 1 })]);
    emit({ type: 'message.started', chatId: 'c1', messageId: 2, round: 1 });
    emit({ type: 'reasoning.delta', chatId: 'c1', messageId: 2, delta: 'Check the date first.' });
    emit({ type: 'text.delta', chatId: 'c1', messageId: 2, delta: 'It is ' });
    const reasoning = (await screen.findByTestId('reasoning')) as HTMLDetailsElement;
    await waitFor(() => expect(reasoning).toHaveProperty('open', false));
    // The person opens it (a click or Enter on the summary toggles a native <details>).
    act(() => {
      reasoning.open = true;
      fireEvent(reasoning, new Event('toggle'));
    });
    emit({ type: 'reasoning.delta', chatId: 'c1', messageId: 2, delta: 'Monday, says the calendar.' });
    await waitFor(() => expect(reasoning.textContent).toContain('Monday, says the calendar.'));
    emit({ type: 'text.delta', chatId: 'c1', messageId: 2, delta: 'Monday.' });
    emit({ type: 'message.finished', chatId: 'c1', messageId: 2, status: 'complete' });
    expect(screen.getByRole('article', { name: 'Assistant' }).textContent).toContain('Monday.');
    expect(reasoning).toHaveProperty('open', true);
  });

  it('shows no disclosure for a message without reasoning', async () => {
    await openWith([userMessage({ id: 1 }), assistantMessage({ id: 2 })]);
    expect(screen.queryByTestId('reasoning')).toBeNull();
  });
});

describe('usage', () => {
  it("sums a turn's rounds on one line under the turn, unknown counts shown as unknown", async () => {
    await openWith([
      userMessage({ id: 1 }),
      assistantMessage({
        id: 2,
        usage: roundUsage(
          { inputTokens: 10_000, cacheReadTokens: 100, cacheWriteTokens: 40_000, outputTokens: 200 },
          { costUsd: 0.0113 },
        ),
      }),
      assistantMessage({
        id: 3,
        usage: roundUsage(
          { inputTokens: 2_345, cacheReadTokens: 40_000, cacheWriteTokens: 0, outputTokens: 1_000 },
          { costUsd: 0.01 },
        ),
      }),
      userMessage({ id: 4 }),
      assistantMessage({
        id: 5,
        usage: roundUsage(
          { inputTokens: 50, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null },
          { model: 'local-model', costUsd: null },
        ),
      }),
      userMessage({ id: 6 }),
      assistantMessage({ id: 7, usage: roundUsage({ inputTokens: 70, outputTokens: 7 }, { costUsd: 0.5 }) }),
      assistantMessage({
        id: 8,
        usage: roundUsage({ inputTokens: 30, outputTokens: null }, { costUsd: null }),
      }),
      // Stopped before the server said anything: every count null.
      assistantMessage({
        id: 9,
        status: 'cancelled',
        usage: roundUsage(
          { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null },
          { costUsd: null },
        ),
      }),
    ]);
    expect(lines()).toEqual([
      '12,345 in · 40,100 cached · 40,000 cache write · 1,200 out · $0.0213',
      '50 in · ? out',
      '100 in · ≥7 out · 1 round not reported',
    ]);
    const [first, second, third] = screen.getAllByRole('note', { name: 'Usage' });
    // Each line closes its turn: right after the turn's last round.
    const rows = screen.getAllByRole('article', { name: 'Assistant' });
    expect(rows[1]?.nextElementSibling).toBe(first);
    expect(rows[2]?.nextElementSibling).toBe(second);
    expect(first?.getAttribute('title')).toBeNull();
    expect(second?.getAttribute('title')).toContain('The server did not report cache reads or cache writes.');
    expect(second?.getAttribute('title')).toContain('No cost where the input or output count is unknown.');
    expect(third?.getAttribute('title')).toContain('≥ marks a count only some rounds reported.');
  });

  it('says which model has no price, and follows usage events of a running turn', async () => {
    await openWith([userMessage({ id: 1 })]);
    emit({ type: 'turn.started', chatId: 'c1', turnId: 't' });
    emit({ type: 'message.started', chatId: 'c1', messageId: 2, round: 1 });
    emit({ type: 'message.finished', chatId: 'c1', messageId: 2, status: 'complete' });
    expect(lines()).toEqual([]);
    emit({
      type: 'usage',
      chatId: 'c1',
      messageId: 2,
      round: 1,
      ...roundUsage({ inputTokens: 1_500, outputTokens: 20 }, { model: 'my-model', costUsd: null }),
    });
    expect(lines()).toEqual(['1,500 in · 20 out']);
    expect(screen.getByRole('note', { name: 'Usage' }).getAttribute('title')).toBe('No price for my-model.');
    emit({ type: 'message.started', chatId: 'c1', messageId: 3, round: 2 });
    emit({ type: 'message.finished', chatId: 'c1', messageId: 3, status: 'cancelled' });
    // Still running: the second round may yet report. Once the turn ended, it did not.
    expect(lines()).toEqual(['1,500 in · 20 out']);
    emit({ type: 'turn.finished', chatId: 'c1', turnId: 't', status: 'cancelled', text: '', rounds: 2 });
    expect(lines()).toEqual(['1,500 in · 20 out · 1 round not reported']);
  });

  it('totals the whole chat in its bar', async () => {
    await openWith([
      userMessage({ id: 1 }),
      assistantMessage({
        id: 2,
        usage: roundUsage({ inputTokens: 1_000, outputTokens: 10 }, { costUsd: 1.5 }),
      }),
      userMessage({ id: 3 }),
      assistantMessage({
        id: 4,
        usage: roundUsage({ inputTokens: 2_000, outputTokens: 5 }, { costUsd: 0.25 }),
      }),
      assistantMessage({ id: 5, usage: null }),
    ]);
    const total = screen.getByRole('note', { name: 'Chat usage' });
    expect(total.textContent).toBe('Total: 3,000 in · 15 out · $1.75 · 1 round not reported');
    expect(screen.getByTestId('chat-usage')).toBe(total);
  });

  it('shows no line for history from before usage was recorded', async () => {
    await openWith([userMessage({ id: 1 }), assistantMessage({ id: 2 })]);
    expect(lines()).toEqual([]);
    expect(screen.queryByRole('note', { name: 'Chat usage' })).toBeNull();
  });
});

describe('the reasoning picker', () => {
  it("offers the settings' level as the default and sets the chat's own through main", async () => {
    await openWith([]);
    const picker = screen.getByRole('combobox', { name: 'Reasoning' });
    expect(picker).toHaveProperty('value', 'default');
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Default (settings: medium)', 'Off', 'Low', 'Medium', 'High']);
    fireEvent.change(picker, { target: { value: 'high' } });
    await waitFor(() => expect(useAppStore.getState().chat.summary?.reasoning).toBe('high'));
    expect(api.calls.filter((c) => c.channel === 'chats.setReasoning')).toEqual([
      { channel: 'chats.setReasoning', request: { chatId: 'c1', reasoning: 'high' } },
    ]);
    expect(screen.getByRole('combobox', { name: 'Reasoning' })).toHaveProperty('value', 'high');
  });
});
