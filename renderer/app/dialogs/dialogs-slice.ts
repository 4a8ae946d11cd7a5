// Dialogs main wants answered (approval, secret, question, trust) as in-page modals; a secret's value never comes
// here.
import type {
  ApprovalChoice,
  DialogEvent,
  DialogRequest,
  QuestionAnswer,
  TrustAnswer,
} from '../../../preload/contract';
import type { SliceCreator } from '../../store/app-state';
import { getDialogApi } from '../../boot/bridge';
import { t } from '../../i18n/i18n';

/** The open dialogs, oldest first. */
export interface DialogsSlice {
  dialogs: DialogRequest[];
  loadDialogs(): Promise<void>;
  dialogEvent(event: DialogEvent): void;
  /** Answers one approval item; resolves to an error message, or null when it was taken. */
  answerApproval(id: string, index: number, choice: ApprovalChoice): Promise<string | null>;
  answerQuestion(id: string, answer: QuestionAnswer): Promise<string | null>;
  /** Answers main's trust dialog (docs/security.md): only the person's "Trust" there trusts a folder. */
  answerTrust(id: string, answer: TrustAnswer): Promise<string | null>;
  /** Forgets a dialog locally (after it was answered; main's dialog.closed confirms it). */
  dropDialog(id: string): void;
}

/** Creates the dialogs slice. */
export const createDialogsSlice: SliceCreator<DialogsSlice> = (set, get) => ({
  dialogs: [],
  async loadDialogs() {
    const api = getDialogApi();
    if (!api) return;
    const result = await api.pending();
    if (result.ok) set({ dialogs: result.value });
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.loadDialogs'), message: result.error.message }),
      );
  },
  dialogEvent(event) {
    switch (event.type) {
      case 'dialog.opened':
        return set((s) => ({
          dialogs: [...s.dialogs.filter((d) => d.id !== event.dialog.id), event.dialog],
        }));
      case 'dialog.updated':
        return set((s) => ({
          dialogs: s.dialogs.map((d) =>
            d.id === event.id && d.kind === 'approval' ? { ...d, pending: event.pending } : d,
          ),
        }));
      case 'dialog.closed':
        if (event.reason === 'timed_out') get().pushNotice('warn', t('notices.dialogTimedOut'));
        return get().dropDialog(event.id);
    }
  },
  async answerApproval(id, index, choice) {
    const api = getDialogApi();
    if (!api) return 'no dialog connection';
    const result = await api.answerApproval({ id, index, choice });
    if (!result.ok) return result.error.message;
    const pending = result.value.pending;
    if (pending.length === 0) get().dropDialog(id);
    else
      set((s) => ({
        dialogs: s.dialogs.map((d) => (d.id === id && d.kind === 'approval' ? { ...d, pending } : d)),
      }));
    return null;
  },
  async answerQuestion(id, answer) {
    const api = getDialogApi();
    if (!api) return 'no dialog connection';
    const result = await api.answerQuestion({ id, answer });
    if (!result.ok) return result.error.message;
    get().dropDialog(id);
    return null;
  },
  async answerTrust(id, answer) {
    const api = getDialogApi();
    if (!api) return 'no dialog connection';
    const result = await api.answerTrust({ id, answer });
    if (!result.ok) return result.error.message;
    get().dropDialog(id);
    return null;
  },
  dropDialog: (id) => set((s) => ({ dialogs: s.dialogs.filter((d) => d.id !== id) })),
});
