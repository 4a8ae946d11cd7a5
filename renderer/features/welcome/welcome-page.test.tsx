// @vitest-environment jsdom
// The Welcome page against a fake main: presets prefill, the key goes through main's prompt by name only, and an
// answer to an older Test connection (the person moved on to another provider) is dropped.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelListView, SettingsView } from '../../../preload/contract';
import { setBridge } from '../../boot/bridge';
import { initialAppState, useAppStore } from '../../store/app-store';
import { fakeApi } from '../../testing/fake-bridge';
import { WelcomePage } from './welcome-page';

beforeEach(() => useAppStore.setState(initialAppState, true));
afterEach(cleanup);

const settings: SettingsView = {
  provider: 'anthropic',
  baseUrl: 'https://api.anthropic.com',
  model: 'claude-sonnet-4-6',
  apiKeyName: 'ANTHROPIC_API_KEY',
  defaultWorkspace: '',
  chatsFolder: '/home/p/Agenvoy',
  providers: ['anthropic', 'ollama'],
  presets: [
    {
      kind: 'anthropic',
      label: 'Anthropic',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude-sonnet-4-6',
      apiKeyName: 'ANTHROPIC_API_KEY',
    },
    { kind: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: '', apiKeyName: null },
  ],
  configured: false,
  problem: null,
  reasoning: 'medium',
  thinkingBudgetTokens: null,
  prices: [],
  overridden: [],
};

describe('WelcomePage', () => {
  it('prefills per provider and asks main for the key by name, never holding a value', async () => {
    const api = fakeApi({
      'secrets.prompt': () => ({ stored: true }),
      'secrets.list': () => ({ keys: [], backend: 'file', reason: '', file: null, interopNote: null }),
    });
    setBridge({ agenvoy: api });
    render(<WelcomePage settings={settings} />);
    expect(screen.getByLabelText('Base URL')).toHaveProperty('value', 'https://api.anthropic.com');
    fireEvent.click(screen.getByRole('button', { name: 'Enter API key' }));
    await screen.findByRole('button', { name: 'Enter API key' });
    expect(api.calls.find((c) => c.channel === 'secrets.prompt')?.request).toMatchObject({
      key: 'ANTHROPIC_API_KEY',
    });
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'ollama' } });
    expect(screen.getByLabelText('Base URL')).toHaveProperty('value', 'http://127.0.0.1:11434/v1');
    expect(screen.getByLabelText('No key')).toHaveProperty('checked', true);
    expect(screen.getByRole('button', { name: 'Enter API key' })).toHaveProperty('disabled', true);
  });

  it('drops the answer to a Test connection of a provider the person has left', async () => {
    let answer: (value: ModelListView) => void = () => undefined;
    const api = fakeApi({
      'provider.models': () => new Promise<ModelListView>((resolve) => (answer = resolve)),
    });
    setBridge({ agenvoy: api });
    render(<WelcomePage settings={settings} />);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText('Asking the server for its models…');
    fireEvent.change(screen.getByLabelText('Provider'), { target: { value: 'ollama' } });
    answer({ url: 'https://api.anthropic.com/v1/models', models: ['claude-old'] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText(/Connected:/)).toBeNull();
    expect(screen.getByLabelText('Model').tagName).toBe('INPUT');
    expect(screen.queryByRole('option', { name: 'claude-old' })).toBeNull();
  });
});
