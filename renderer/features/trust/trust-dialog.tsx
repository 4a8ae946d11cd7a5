// Main's own "trust this folder?" dialog (docs/security.md, "Workspace trust"): the folder, each of its workspace
// tools and what trusting gives it (running without asking, secrets), and which are new or changed since the person
// last trusted it. Trusting covers these tools as they are now. Cancel is the default; only "Trust" trusts.
import { useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { DialogRequest, TrustAnswer } from '../../../preload/contract';
import { DialogFrame } from '../../shared/ui/dialog-frame';

type TrustRequest = Extract<DialogRequest, { kind: 'trust' }>;

/** Props of TrustDialog. */
export interface TrustDialogProps {
  request: TrustRequest;
  /** Sends the answer to main; resolves to an error message or null. */
  onAnswer: (answer: TrustAnswer) => Promise<string | null>;
  overlay: boolean;
}

/** Asks the person whether to trust one folder's workspace tools. */
export function TrustDialog({ request, onAnswer, overlay }: TrustDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (answer: TrustAnswer) => {
    setBusy(true);
    setError(null);
    const problem = await onAnswer(answer);
    setBusy(false);
    if (problem) setError(problem);
  };
  const cancel = () => void send({ kind: 'cancel' });
  const changed = request.tools.filter((tool) => tool.change !== null).length;
  return (
    <DialogFrame title={t('trust.title')} overlay={overlay} onEscape={cancel} className="trust-dialog">
      <p className="path">{request.folder}</p>
      {request.tools.length > 0 ? (
        <>
          {changed > 0 && (
            <p className="warning-text" role="status">
              {t('trust.changedSince', { count: changed })}
            </p>
          )}
          <p>{t('trust.onceTrusted')}</p>
          <ul className="trust-tools" aria-label={t('trust.itsTools')}>
            {request.tools.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code>
                {tool.change && (
                  <strong className="warning-text">
                    {' '}
                    {tool.change === 'new' ? t('trust.newSince') : t('trust.changedSinceTool')}
                  </strong>
                )}
                {tool.alwaysAllow && <span className="warning-text">{t('trust.runsWithoutAsking')}</span>}
                {tool.secrets.length > 0 && (
                  <span className="warning-text">
                    {t('trust.receivesSecrets', { secrets: tool.secrets.join(', ') })}
                  </span>
                )}
                {!tool.alwaysAllow && tool.secrets.length === 0 && (
                  <span className="muted">{t('trust.stillAsks')}</span>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>{t('trust.noTools')}</p>
      )}
      <p>{t('trust.coversNow')}</p>
      <p className="warning" role="note">
        {t('trust.onlyIf')}
      </p>
      {error && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-buttons">
        <button type="button" className="danger" disabled={busy} onClick={() => void send({ kind: 'trust' })}>
          {t('trust.trust')}
        </button>
        <button type="button" data-autofocus disabled={busy} onClick={cancel}>
          {t('trust.cancel')}
        </button>
      </div>
    </DialogFrame>
  );
}
