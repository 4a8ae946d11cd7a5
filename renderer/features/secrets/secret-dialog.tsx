// The masked secret prompt: names the key and why it is asked. The value lives only in the input's DOM value,
// never in React state or the store, and the field is cleared the moment it is submitted.
import type { FormEvent } from 'react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { DialogRequest, SecretAnswer } from '../../../preload/contract';
import { DialogFrame } from '../../shared/ui/dialog-frame';
import { useArmed } from '../../shared/ui/use-armed';

type SecretRequest = Extract<DialogRequest, { kind: 'secret' }>;

/** Props of SecretDialog. */
export interface SecretDialogProps {
  request: SecretRequest;
  /** Sends the answer to main; resolves to an error message or null. */
  onAnswer: (answer: SecretAnswer) => Promise<string | null>;
  overlay: boolean;
}

/** The masked prompt for one key. */
export function SecretDialog({ request, onAnswer, overlay }: SecretDialogProps) {
  const { t } = useTranslation();
  const field = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Opened while the person typed a message, a focused field took their next words and Enter stored them as the key:
  // the dialog opens with the focus on itself, and Save counts only once it has been on screen a moment.
  const armed = useArmed(request.id);

  const send = async (answer: SecretAnswer) => {
    setBusy(true);
    setError(null);
    const problem = await onAnswer(answer);
    setBusy(false);
    if (problem) setError(problem);
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    const input = field.current;
    if (!input) return;
    const value = input.value;
    if (!armed) return;
    // Cleared before anything else happens, so no later render, retry or snapshot can see it.
    input.value = '';
    if (value === '') return setError(t('secret.typeFirst'));
    void send({ kind: 'value', value });
  };
  const cancel = () => {
    if (field.current) field.current.value = '';
    void send({ kind: 'cancel' });
  };

  return (
    <DialogFrame
      title={t('secret.title')}
      overlay={overlay}
      onEscape={cancel}
      className="secret-dialog"
      focusOnOpen="dialog"
    >
      <form onSubmit={save} autoComplete="off">
        <p className="question">{request.question}</p>
        {request.forTool && <p className="muted">{t('secret.neededBy', { tool: request.forTool })}</p>}
        <label htmlFor={fieldId} className="field-label">
          {request.key}
        </label>
        <input
          ref={field}
          id={fieldId}
          type="password"
          name="secret-value"
          autoComplete="new-password"
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          disabled={busy}
        />
        <p className="muted">{t('secret.privacy')}</p>
        {error && (
          <p className="dialog-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="submit" className="primary" disabled={busy || !armed}>
            {t('secret.save')}
          </button>
          <button type="button" onClick={cancel} disabled={busy}>
            {t('secret.cancel')}
          </button>
        </div>
      </form>
    </DialogFrame>
  );
}
