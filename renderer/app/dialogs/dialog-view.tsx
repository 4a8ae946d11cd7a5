// Picks the component for a dialog request and wires its answers: the same code in-page and in Electron's windows.
import type { DialogRequest, SecretAnswer } from '../../../preload/contract';
import { t } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import { getDialogApi } from '../../boot/bridge';
import { ApprovalDialog } from '../../features/approvals/approval-dialog';
import { QuestionDialog } from '../../features/chat/question-dialog';
import { SecretDialog } from '../../features/secrets/secret-dialog';
import { TrustDialog } from '../../features/trust/trust-dialog';

/** One dialog, answered through the page's DialogApi. */
export function DialogView({ dialog, overlay }: { dialog: DialogRequest; overlay: boolean }) {
  const answerApproval = useAppStore((s) => s.answerApproval);
  const answerQuestion = useAppStore((s) => s.answerQuestion);
  const answerTrust = useAppStore((s) => s.answerTrust);
  const dropDialog = useAppStore((s) => s.dropDialog);
  switch (dialog.kind) {
    case 'approval':
      return (
        <ApprovalDialog
          key={dialog.id}
          request={dialog}
          overlay={overlay}
          onAnswer={(index, choice) => answerApproval(dialog.id, index, choice)}
        />
      );
    case 'question':
      return (
        <QuestionDialog
          key={dialog.id}
          request={dialog}
          overlay={overlay}
          onAnswer={(answer) => answerQuestion(dialog.id, answer)}
        />
      );
    case 'secret':
      return (
        <SecretDialog
          key={dialog.id}
          request={dialog}
          overlay={overlay}
          onAnswer={(answer) => answerSecret(dialog.id, answer, dropDialog)}
        />
      );
    case 'trust':
      return (
        <TrustDialog
          key={dialog.id}
          request={dialog}
          overlay={overlay}
          onAnswer={(answer) => answerTrust(dialog.id, answer)}
        />
      );
  }
}

// The secret goes from the dialog straight to the DialogApi: it passes no store action and no state.
async function answerSecret(
  id: string,
  answer: SecretAnswer,
  drop: (id: string) => void,
): Promise<string | null> {
  const api = getDialogApi();
  if (!api) return t('notices.noDialogConnection');
  const result = await api.answerSecret({ id, answer });
  if (!result.ok) return result.error.message;
  drop(id);
  return null;
}
