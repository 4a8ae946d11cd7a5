// The bound store's full shape: one typed slice per feature, each with its actions next to its state. The slices
// live with their features (features/*/…-slice.ts) and the app shell (app/ui-slice.ts, app/dialogs/dialogs-slice.ts).
import type { DialogsSlice } from '../app/dialogs/dialogs-slice';
import type { PreferencesSlice } from '../app/preferences-slice';
import type { UiSlice } from '../app/ui-slice';
import type { RulesSlice } from '../features/approvals/rules-slice';
import type { ChatSlice } from '../features/chat/chat-slice';
import type { ChatsSlice } from '../features/chat/chats-slice';
import type { ModelsSlice } from '../features/chat/models-slice';
import type { SecretsSlice } from '../features/secrets/secrets-slice';
import type { SettingsSlice } from '../features/settings/settings-slice';
import type { TasksSlice } from '../features/tasks/tasks-slice';
import type { ToolsSlice } from '../features/tool-catalog/tools-slice';
import type { TrustSlice } from '../features/trust/trust-slice';
import type { UpdatesSlice } from '../features/updates/updates-slice';

/** Every slice of the renderer's store. */
export type AppState = UiSlice &
  ChatsSlice &
  ChatSlice &
  TasksSlice &
  DialogsSlice &
  ToolsSlice &
  RulesSlice &
  SettingsSlice &
  SecretsSlice &
  TrustSlice &
  UpdatesSlice &
  PreferencesSlice &
  ModelsSlice;

/** How a slice is made: zustand's set and get over the whole state. */
export type SliceCreator<T> = (
  set: (partial: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => void,
  get: () => AppState,
) => T;
