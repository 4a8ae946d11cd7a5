// Which screen shows, the link to main, and short notices (toasts) for the user.
import type { AppInfo, ConnectionState } from '../../preload/contract';
import type { SliceCreator } from '../store/app-state';
import { invoke } from '../boot/bridge';

/** The screens of the main area. */
export type View = 'chat' | 'tools' | 'rules' | 'settings';

/** A toast. */
export interface Notice {
  id: number;
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** UI-wide state. */
export interface UiSlice {
  view: View;
  connection: ConnectionState;
  appInfo: AppInfo | null;
  notices: Notice[];
  /** The keyboard help sheet is open. */
  helpOpen: boolean;
  setHelpOpen(open: boolean): void;
  setView(view: View): void;
  setConnection(connection: ConnectionState): void;
  loadAppInfo(): Promise<void>;
  pushNotice(level: Notice['level'], message: string): void;
  dismissNotice(id: number): void;
}

// Older toasts drop off so a burst of warnings cannot cover the window.
const MAX_NOTICES = 4;
let noticeId = 0;

/** Creates the UI slice. */
export const createUiSlice: SliceCreator<UiSlice> = (set, get) => ({
  view: 'chat',
  connection: { state: 'connected' },
  appInfo: null,
  notices: [],
  helpOpen: false,
  setHelpOpen: (helpOpen) => set({ helpOpen }),
  setView: (view) => set({ view }),
  setConnection: (connection) => set({ connection }),
  async loadAppInfo() {
    const result = await invoke('app.info', {});
    if (result.ok) set({ appInfo: result.value });
    else get().pushNotice('error', result.error.message);
  },
  pushNotice: (level, message) =>
    set((s) => ({ notices: [...s.notices, { id: ++noticeId, level, message }].slice(-MAX_NOTICES) })),
  dismissNotice: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
});
