// The bound store's full shape: one typed slice per feature, each with its actions next to its state.
import type { ChatSlice } from './chat-slice';
import type { ChatsSlice } from './chats-slice';
import type { DialogsSlice } from './dialogs-slice';
import type { RulesSlice } from './rules-slice';
import type { SettingsSlice } from './settings-slice';
import type { TasksSlice } from './tasks-slice';
import type { ToolsSlice } from './tools-slice';
import type { TrustSlice } from './trust-slice';
import type { UiSlice } from './ui-slice';

/** Every slice of the renderer's store. */
export type AppState = UiSlice &
  ChatsSlice &
  ChatSlice &
  TasksSlice &
  DialogsSlice &
  ToolsSlice &
  RulesSlice &
  SettingsSlice &
  TrustSlice;

/** How a slice is made: zustand's set and get over the whole state. */
export type SliceCreator<T> = (
  set: (partial: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void,
  get: () => AppState,
) => T;
