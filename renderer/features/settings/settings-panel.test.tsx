// @vitest-environment jsdom
// The settings screen's reasoning and price table against a fake main that saves what it is given: edits go to
// settings.save whole, and what the page refuses is said in words and never sent.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SettingsInput, SettingsView } from '../../../preload/contract';
import { setBridge } from '../../boot/bridge';
import { initialAppState, useAppStore } from '../../store/app-store';
import type { FakeApi } from '../../testing/fake-bridge';
import { fakeApi } from '../../testing/fake-bridge';
import { settingsView } from '../../testing/views';
import { SettingsPanel } from './settings-panel';

let api: FakeApi;
let stored: SettingsView;

beforeEach(() => {
  useAppStore.setState(initialAppState, true);
  stored = settingsView({
    reasoning: 'low',
    thinkingBudgetTokens: null,
    prices: [
      { model: 'claude-sonnet-4-5*', input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      { model: 'gpt-4o', input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: null },
    ],
  });
  // Like main: a field left out is kept, and the answer is the settings as they now stand.
  api = fakeApi({
    'settings.get': () => stored,
    'settings.save': ({ confirmHome: _confirm, prices, ...input }: SettingsInput) =>
      (stored = { ...stored, ...input, prices: prices ?? stored.prices }),
  });
  setBridge({ agenvoy: api });
});
afterEach(cleanup);

const saves = () => api.calls.filter((c) => c.channel === 'settings.save').map((c) => c.request);
const field = (name: string) => screen.getByRole('textbox', { name });
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });

describe('the price table', () => {
  it('edits, adds and removes rows, and saves the whole table', async () => {
    render(<SettingsPanel />);
    const table = await screen.findByRole('table', { name: 'Model prices' });
    expect(field('Model, row 1')).toHaveProperty('value', 'claude-sonnet-4-5*');
    expect(field('Cache write, row 2')).toHaveProperty('value', '');
    type('Output, row 1', '16');
    fireEvent.click(screen.getByRole('button', { name: 'Remove row 2' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add a model' }));
    type('Model, row 2', 'qwen3*');
    type('Input, row 2', '0.2');
    type('Output, row 2', '.6');
    type('Cache read, row 2', '0');
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]).toEqual({
      prices: [
        { model: 'claude-sonnet-4-5*', input: 3, output: 16, cacheRead: 0.3, cacheWrite: 3.75 },
        { model: 'qwen3*', input: 0.2, output: 0.6, cacheRead: 0, cacheWrite: null },
      ],
    });
    // The table now shows what main answered.
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(field('Output, row 1')).toHaveProperty('value', '16');
    expect(field('Model, row 2')).toHaveProperty('value', 'qwen3*');
    expect(field('Cache write, row 2')).toHaveProperty('value', '');
  });

  it('refuses what is not a price, in words that name the row, and sends nothing', async () => {
    render(<SettingsPanel />);
    await screen.findByRole('table', { name: 'Model prices' });
    type('Input, row 1', 'three');
    type('Cache read, row 2', '-1');
    fireEvent.click(screen.getByRole('button', { name: 'Add a model' }));
    type('Model, row 3', 'gpt-4o');
    type('Output, row 3', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    const alert = await screen.findByRole('alert', { name: 'Prices not saved' });
    expect([...alert.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Row 1 (claude-sonnet-4-5*): the input price "three" is not a number of dollars, 0 or more.',
      'Row 2 (gpt-4o): the cache read price "-1" is not a number of dollars, 0 or more.',
      'Row 3 (gpt-4o): this model is already priced in row 2.',
      'Row 3 (gpt-4o): the input price is missing.',
    ]);
    expect(saves()).toEqual([]);
    // Editing again clears the refusal.
    type('Input, row 1', '3');
    expect(screen.queryByRole('alert', { name: 'Prices not saved' })).toBeNull();
  });
});

describe('reasoning settings', () => {
  it('saves the level and a budget checked in the page', async () => {
    render(<SettingsPanel />);
    const level = await screen.findByRole('combobox', { name: 'Reasoning' });
    expect(level).toHaveProperty('value', 'low');
    fireEvent.change(level, { target: { value: 'high' } });
    type('Thinking budget (tokens)', '500');
    fireEvent.click(screen.getByRole('button', { name: 'Save reasoning' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The thinking budget must be at least 1,024 tokens and below 128,000.',
    );
    expect(field('Thinking budget (tokens)').getAttribute('aria-invalid')).toBe('true');
    type('Thinking budget (tokens)', '12k');
    fireEvent.click(screen.getByRole('button', { name: 'Save reasoning' }));
    expect((await screen.findByRole('alert')).textContent).toContain('must be a whole number of tokens');
    expect(saves()).toEqual([]);

    type('Thinking budget (tokens)', '16,000');
    fireEvent.click(screen.getByRole('button', { name: 'Save reasoning' }));
    await waitFor(() => expect(saves()).toEqual([{ reasoning: 'high', thinkingBudgetTokens: 16000 }]));
    await waitFor(() => expect(field('Thinking budget (tokens)')).toHaveProperty('value', '16000'));
    expect(screen.getByRole('combobox', { name: 'Reasoning' })).toHaveProperty('value', 'high');

    type('Thinking budget (tokens)', ' ');
    fireEvent.click(screen.getByRole('button', { name: 'Save reasoning' }));
    await waitFor(() => expect(saves().at(-1)).toEqual({ reasoning: 'high', thinkingBudgetTokens: null }));
  });
});
