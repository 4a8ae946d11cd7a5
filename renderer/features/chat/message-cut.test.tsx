// @vitest-environment jsdom
// A message the snapshot only began (docs/interface.md, "Large calls"): its row says how much is left, and Show all
// puts the whole in its place, for a person's message and for an answer.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageView } from '../../../preload/contract';
import { setBridge } from '../../boot/bridge';
import { initialAppState, useAppStore } from '../../store/app-store';
import type { FakeApi } from '../../testing/fake-bridge';
import { fakeApi } from '../../testing/fake-bridge';
import { assistantMessage, chatSummary, snapshot, userMessage } from '../../testing/views';
import { MessageList } from './message-list';

let api: FakeApi;
const wholeAnswer = `${'a'.repeat(30)}${'z'.repeat(40)}`;

beforeEach(async () => {
  useAppStore.setState(initialAppState, true);
  const begun: MessageView[] = [
    userMessage({ id: 1, text: 'q'.repeat(10), cut: 5 }),
    assistantMessage({ id: 2, seq: 2, text: 'a'.repeat(30), cut: 40 }),
  ];
  api = fakeApi({
    'chats.open': ({ chatId }) => snapshot({ chat: chatSummary({ id: chatId }), messages: begun }),
    'chats.message': ({ messageId }) =>
      messageId === 2
        ? assistantMessage({ id: 2, seq: 2, text: wholeAnswer })
        : { ok: false, error: { code: 'not_found', message: 'gone' } },
  });
  setBridge({ agenvoy: api });
  await useAppStore.getState().openChat('c1');
  render(<MessageList />);
});
afterEach(cleanup);

describe('a long message', () => {
  it('shows its start and how much is left, and the whole on request', async () => {
    const answer = screen.getByRole('article', { name: 'Assistant' });
    expect(answer.textContent).toContain('… 40 more characters');
    expect(answer.textContent).not.toContain('z');
    fireEvent.click(screen.getAllByRole('button', { name: 'Show all' })[1] as HTMLElement);
    await waitFor(() => expect(answer.textContent).toContain('z'.repeat(40)));
    expect(answer.textContent).not.toContain('more characters');
    expect(api.calls.filter((c) => c.channel === 'chats.message')).toEqual([
      { channel: 'chats.message', request: { chatId: 'c1', messageId: 2 } },
    ]);
  });

  it('keeps the start and says why when the whole cannot be had', async () => {
    fireEvent.click(screen.getAllByRole('button', { name: 'Show all' })[0] as HTMLElement);
    await waitFor(() =>
      expect(useAppStore.getState().notices.at(-1)?.message).toContain('Could not show the whole message'),
    );
    expect(screen.getByRole('article', { name: 'You' }).textContent).toContain('… 5 more characters');
  });
});
