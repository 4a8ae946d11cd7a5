// Main's own "trust this folder?" dialog (docs/security.md, "Workspace trust"): the folder, each of its workspace
// tools and what trusting gives it (running without asking, secrets), and which are new or changed since the person
// last trusted it. Trusting covers these tools as they are now. Cancel is the default; only "Trust" trusts.
import { useState } from 'react';
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
    <DialogFrame title="Trust this folder?" overlay={overlay} onEscape={cancel} className="trust-dialog">
      <p className="path">{request.folder}</p>
      {request.tools.length > 0 ? (
        <>
          {changed > 0 && (
            <p className="warning-text" role="status">
              You trusted this folder before; {changed} of its tools {changed === 1 ? 'is' : 'are'} new or
              changed since, and {changed === 1 ? 'asks' : 'ask'} on every call until you trust it again.
            </p>
          )}
          <p>Once trusted, its workspace tools follow your rules and their own tool.json:</p>
          <ul className="trust-tools" aria-label="Its workspace tools">
            {request.tools.map((tool) => (
              <li key={tool.name}>
                <code>{tool.name}</code>
                {tool.change && (
                  <strong className="warning-text">
                    {' '}
                    ({tool.change === 'new' ? 'new' : 'changed'} since you trusted this folder)
                  </strong>
                )}
                {tool.alwaysAllow && (
                  <span className="warning-text"> — runs without asking (always_allow)</span>
                )}
                {tool.secrets.length > 0 && (
                  <span className="warning-text"> — receives the secrets {tool.secrets.join(', ')}</span>
                )}
                {!tool.alwaysAllow && tool.secrets.length === 0 && (
                  <span className="muted"> — still asks; no secrets</span>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>It has no workspace tools now.</p>
      )}
      <p>
        Trusting covers its tools as they are now: a tool added or changed later asks on every call and gets
        no secrets until you trust the folder again.
      </p>
      <p className="warning" role="note">
        Trust it only if you trust whoever wrote its files: a cloned repository is a stranger’s. Trusted tools
        still run in the OS sandbox; you can revoke trust in Settings.
      </p>
      {error && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-buttons">
        <button type="button" className="danger" disabled={busy} onClick={() => void send({ kind: 'trust' })}>
          Trust
        </button>
        <button type="button" data-autofocus disabled={busy} onClick={cancel}>
          Cancel
        </button>
      </div>
    </DialogFrame>
  );
}
