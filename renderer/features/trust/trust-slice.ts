// Trusted folders (docs/security.md, "Workspace trust"): the list with revoke, and whether the workspace the app
// loads tools from has tools of its own that are not trusted. Only the person's click trusts a folder.
import type { TrustedFolderItem, WorkspaceTrustView } from '../../../preload/contract';
import type { SliceCreator } from '../../store/app-state';
import { invoke } from '../../boot/bridge';
import { t } from '../../i18n/i18n';

/** The trust state of the Settings screen and the untrusted-tools notice. */
export interface TrustSlice {
  trustedFolders: TrustedFolderItem[];
  /** Set when trusted-folders.json is damaged (then nothing is trusted). */
  trustProblem: string | null;
  /** The app's tool workspace: trusted or not, and its own tools; null before it loaded or when it failed. */
  workspaceTrust: WorkspaceTrustView | null;
  /** The folder-and-tools the person put off trusting for now (the notice hides until they change). */
  trustNoticeDismissed: string | null;
  /** A trust or revoke in flight. */
  trustBusy: boolean;
  loadTrustedFolders(): Promise<void>;
  loadWorkspaceTrust(): Promise<void>;
  /** Asks main to trust `folder` (main confirms with the person in its own dialog); refreshes the lists and the tools. */
  trustFolder(folder: string): Promise<void>;
  revokeTrust(folder: string): Promise<void>;
  dismissTrustNotice(): void;
}

/** The key a dismissal is kept under: new untrusted tools bring the notice back. */
export function trustNoticeKey(view: WorkspaceTrustView): string {
  return `${view.folder ?? view.workspace}\n${view.untrustedTools.join(',')}`;
}

/** Creates the trust slice. */
export const createTrustSlice: SliceCreator<TrustSlice> = (set, get) => {
  const refresh = async () => {
    await Promise.all([get().loadTrustedFolders(), get().loadWorkspaceTrust(), get().loadTools()]);
  };
  return {
    trustedFolders: [],
    trustProblem: null,
    workspaceTrust: null,
    trustNoticeDismissed: null,
    trustBusy: false,
    async loadTrustedFolders() {
      const result = await invoke('trust.list', {});
      if (result.ok) set({ trustedFolders: result.value.folders, trustProblem: result.value.problem });
      else
        get().pushNotice(
          'error',
          t('notices.couldNot', { what: t('notices.listTrusted'), message: result.error.message }),
        );
    },
    async loadWorkspaceTrust() {
      // Quiet on failure: the notice is a hint, and a host without the channel simply shows none.
      const result = await invoke('trust.status', {});
      set({ workspaceTrust: result.ok ? result.value : null });
    },
    async trustFolder(folder) {
      set({ trustBusy: true });
      // Main asks the person in a dialog of its own before it answers (docs/security.md).
      const result = await invoke('trust.add', { folder });
      set({ trustBusy: false });
      if (!result.ok && result.error.code === 'declined')
        return get().pushNotice('info', t('notices.notTrusted'));
      if (!result.ok)
        return get().pushNotice(
          'error',
          t('notices.couldNot', { what: t('notices.notTrustedBecause'), message: result.error.message }),
        );
      get().pushNotice('info', t('notices.trusted', { path: result.value.path }));
      await refresh();
    },
    async revokeTrust(folder) {
      set({ trustBusy: true });
      const result = await invoke('trust.revoke', { folder });
      set({ trustBusy: false });
      if (!result.ok)
        return get().pushNotice(
          'error',
          t('notices.couldNot', { what: t('notices.revoke'), message: result.error.message }),
        );
      get().pushNotice('info', t('notices.untrusted', { path: result.value.path }));
      await refresh();
    },
    dismissTrustNotice() {
      const view = get().workspaceTrust;
      if (view) set({ trustNoticeDismissed: trustNoticeKey(view) });
    },
  };
};
