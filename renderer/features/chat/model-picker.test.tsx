// @vitest-environment jsdom
// The chat header's model picker against a fake main: the list is asked for once it is used, kept, refreshed on
// request; a pick goes to chats.setModel and main's answer is what the picker shows; a model the list lacks stays.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSummary } from '../../../preload/contract';
import { setBridge } from '../../boot/bridge';
import { initialAppState, useAppStore } from '../../store/app-store';
import type { FakeApi } from '../../testing/fake-bridge';
import { fakeApi } from '../../testing/fake-bridge';
import { chatSummary, settingsView } from '../../testing/views';
import { ModelPicker } from './model-picker';

let api: FakeApi;
let listed: string[];
let chat: ChatSummary;

function Picker() {
  const model = useAppStore((s) => s.chats.find((c) => c.id === 'c1')?.model ?? null);
  return <ModelPicker chatId="c1" model={model} />;
}

beforeEach(() => {
  localStorage.clear();
  listed = ['small', 'large'];
  chat = chatSummary({ id: 'c1' });
  api = fakeApi({
    'provider.models': () => ({ models: listed, url: 'http://127.0.0.1:1/v1/models' }),
    'chats.setModel': ({ model }) => (chat = { ...chat, model }),
  });
  setBridge({ agenvoy: api });
  useAppStore.setState(
    { ...initialAppState, modelList: null, settings: settingsView({ model: 'small' }), chats: [chat] },
    true,
  );
});
afterEach(cleanup);

const options = () => screen.getAllByRole('option').map((o) => o.textContent);
const asked = () => api.calls.filter((c) => c.channel === 'provider.models').length;

describe('ModelPicker', () => {
  it('lists the provider’s models once used, and sets the chat’s model through main', async () => {
    render(<Picker />);
    const select = screen.getByRole('combobox', { name: 'Model' });
    expect(options()).toEqual(['Default (settings: small)']);
    expect(asked()).toBe(0);
    fireEvent.focus(select);
    await waitFor(() => expect(options()).toEqual(['Default (settings: small)', 'small', 'large']));
    fireEvent.change(select, { target: { value: 'large' } });
    await waitFor(() => expect(select).toHaveProperty('value', 'large'));
    expect(api.calls.filter((c) => c.channel === 'chats.setModel').map((c) => c.request)).toEqual([
      { chatId: 'c1', model: 'large' },
    ]);
    fireEvent.change(select, { target: { value: '' } });
    await waitFor(() => expect(select).toHaveProperty('value', ''));
    expect(chat.model).toBeNull();
  });

  it('keeps the list, asks again only on Refresh, and keeps a model the list lacks', async () => {
    render(<Picker />);
    fireEvent.focus(screen.getByRole('combobox', { name: 'Model' }));
    await waitFor(() => expect(options()).toHaveLength(3));
    fireEvent.focus(screen.getByRole('combobox', { name: 'Model' }));
    expect(asked()).toBe(1);
    expect(JSON.parse(localStorage.getItem('agenvoy.models') ?? '{}').models).toEqual(['small', 'large']);

    listed = ['large', 'huge'];
    fireEvent.click(screen.getByRole('button', { name: 'Refresh the model list' }));
    await waitFor(() => expect(options()).toEqual(['Default (settings: small)', 'large', 'huge']));
    expect(asked()).toBe(2);

    useAppStore.getState().chatChanged('c1', { ...chat, model: 'retired-model' });
    await waitFor(() => expect(options()).toContain('retired-model (not listed)'));
    expect(screen.getByRole('combobox', { name: 'Model' })).toHaveProperty('value', 'retired-model');
  });

  it('says why when the provider cannot list its models', async () => {
    api = fakeApi({
      'provider.models': () => ({ ok: false, error: { code: 'unavailable', message: 'connection refused' } }),
    });
    setBridge({ agenvoy: api });
    render(<Picker />);
    fireEvent.focus(screen.getByRole('combobox', { name: 'Model' }));
    expect(await screen.findByText('Could not list models: connection refused')).toBeTruthy();
    expect(options()).toEqual(['Default (settings: small)']);
  });
});
