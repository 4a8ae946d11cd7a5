// The renderer's one bound zustand store, made of typed slices.
import { create } from 'zustand';
import type { AppState } from './app-state';
import { createChatSlice } from './chat-slice';
import { createChatsSlice } from './chats-slice';
import { createDialogsSlice } from './dialogs-slice';
import { createRulesSlice } from './rules-slice';
import { createSettingsSlice } from './settings-slice';
import { createTasksSlice } from './tasks-slice';
import { createToolsSlice } from './tools-slice';
import { createTrustSlice } from './trust-slice';
import { createUiSlice } from './ui-slice';

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
  ...createTrustSlice(set, get),
}));

/** The state as first created, for tests that start from scratch. */
export const initialAppState: AppState = useAppStore.getState();
