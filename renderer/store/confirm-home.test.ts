// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InvokeRequest, Result } from '../../preload/contract';
import { chatSummary, snapshot } from '../testing/views';
import type { FakeApi } from '../testing/fake-bridge';
import { fakeApi } from '../testing/fake-bridge';
import { initialAppState, useAppStore } from './app-store';
import { setBridge } from '../boot/bridge';

const HOME = '/home/person';
const refused = {
  ok: false,
  error: { code: 'confirm_required', message: `${HOME} is your home folder` },
} as const;
const state = () => useAppStore.getState();
let api: FakeApi;

// A fake main that, like the real one, refuses the home folder without `confirmHome: true`.
beforeEach(() => {
  useAppStore.setState(initialAppState, true);
  api = fakeApi({
    'chats.open': ({ chatId }) => snapshot({ chat: chatSummary({ id: chatId }) }),
    'chats.setWorkspace': (r: InvokeRequest<'chats.setWorkspace'>) =>
      r.workspace === HOME && r.confirmHome !== true
        ? (refused as Result<never>)
        : chatSummary({ workspace: r.workspace }),
    'chats.create': (r: InvokeRequest<'chats.create'>) =>
      r.workspace === HOME && r.confirmHome !== true
        ? (refused as Result<never>)
        : chatSummary({ id: 'new', workspace: r.workspace ?? '/w' }),
    'settings.save': (r) =>
      r.defaultWorkspace === HOME && r.confirmHome !== true
        ? (refused as Result<never>)
        : {
            provider: 'openai',
            baseUrl: '',
            model: 'm',
            apiKeyName: null,
            defaultWorkspace: r.defaultWorkspace ?? '',
            chatsFolder: '/home/person/Agenvoy',
            providers: ['openai'],
            presets: [],
            configured: true,
            problem: null,
            reasoning: 'off',
            thinkingBudgetTokens: null,
            prices: [],
            overridden: [],
          },
  });
  setBridge({ agenvoy: api });
});
afterEach(() => vi.restoreAllMocks());

const sent = (channel: string) => api.calls.filter((c) => c.channel === channel).map((c) => c.request);

describe('the home folder as a workspace', () => {
  it('is asked about, and sent with confirmHome only after the person agreed', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    await state().openChat('c1');
    await state().setWorkspace(HOME);
    expect(confirm).toHaveBeenCalledOnce();
    expect(confirm.mock.calls[0]?.[0]).toContain('is your home folder');
    expect(sent('chats.setWorkspace')).toEqual([
      { chatId: 'c1', workspace: HOME },
      { chatId: 'c1', workspace: HOME, confirmHome: true },
    ]);
    expect(state().chat.summary?.workspace).toBe(HOME);
  });

  it('declined: nothing more is sent and nothing changes', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(false);
    await state().openChat('c1');
    await state().setWorkspace(HOME);
    await state().createChat(HOME);
    expect(await state().saveSettings({ defaultWorkspace: HOME })).toContain('Not saved');
    expect(sent('chats.setWorkspace')).toEqual([{ chatId: 'c1', workspace: HOME }]);
    expect(sent('chats.create')).toEqual([{ workspace: HOME }]);
    expect(sent('settings.save')).toEqual([{ defaultWorkspace: HOME }]);
    expect(state().chat.summary?.workspace).toBe('/work/ws');
    expect(state().notices).toEqual([]);
  });

  it('any other folder is sent once, without asking', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    await state().createChat('/work/project');
    expect(await state().saveSettings({ defaultWorkspace: '' })).toBeNull();
    expect(confirm).not.toHaveBeenCalled();
    expect(sent('chats.create')).toEqual([{ workspace: '/work/project' }]);
    expect(sent('settings.save')).toEqual([{ defaultWorkspace: '' }]);
  });

  it('agreed for settings and a new chat: resent with confirmHome', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    expect(await state().saveSettings({ defaultWorkspace: HOME })).toBeNull();
    await state().createChat(HOME);
    expect(sent('settings.save')).toEqual([
      { defaultWorkspace: HOME },
      { defaultWorkspace: HOME, confirmHome: true },
    ]);
    expect(sent('chats.create')).toEqual([{ workspace: HOME }, { workspace: HOME, confirmHome: true }]);
    expect(state().chat.chatId).toBe('new');
  });
});
