// The renderer's one bound zustand store, made of the features' typed slices.
import { create } from 'zustand';
import { createDialogsSlice } from '../app/dialogs/dialogs-slice';
import { createPreferencesSlice } from '../app/preferences-slice';
import { createUiSlice } from '../app/ui-slice';
import { createRulesSlice } from '../features/approvals/rules-slice';
import { createChatSlice } from '../features/chat/chat-slice';
import { createChatsSlice } from '../features/chat/chats-slice';
import { createModelsSlice } from '../features/chat/models-slice';
import { createSecretsSlice } from '../features/secrets/secrets-slice';
import { createSettingsSlice } from '../features/settings/settings-slice';
import { createTasksSlice } from '../features/tasks/tasks-slice';
import { createToolsSlice } from '../features/tool-catalog/tools-slice';
import { createTrustSlice } from '../features/trust/trust-slice';
import { createUpdatesSlice } from '../features/updates/updates-slice';
import type { AppState } from './app-state';

/** The store hook: components select single fields, e.g. `useAppStore((s) => s.chat.running)`. */
export const useAppStore = create<AppState>()((set, get) => ({
  ...createUiSlice(set, get),
  ...createChatsSlice(set, get),
  ...createChatSlice(set, get),
  ...createTasksSlice(set, get),
  ...createDialogsSlice(set, get),
  ...createToolsSlice(set, get),
  ...createRulesSlice(set, get),
  ...createSettingsSlice(set, get),
  ...createSecretsSlice(set, get),
  ...createTrustSlice(set, get),
  ...createUpdatesSlice(set, get),
  ...createPreferencesSlice(set, get),
  ...createModelsSlice(set, get),
}));

/** The state as first created, for tests that start from scratch. */
export const initialAppState: AppState = useAppStore.getState();
