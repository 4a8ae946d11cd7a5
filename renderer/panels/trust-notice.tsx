// The notice that the workspace carries tools the person has not trusted (docs/security.md, "Workspace trust"):
// it says what that means and offers "Trust this folder"; nothing is trusted unless the person clicks it.
import { useAppStore } from '../store/app-store';
import { trustNoticeKey } from '../store/trust-slice';

/** A banner over the chat and the tools screen while the tool workspace has untrusted tools. */
export function TrustNotice() {
  const view = useAppStore((s) => s.workspaceTrust);
  const dismissed = useAppStore((s) => s.trustNoticeDismissed);
  const busy = useAppStore((s) => s.trustBusy);
  const trustFolder = useAppStore((s) => s.trustFolder);
  const dismiss = useAppStore((s) => s.dismissTrustNotice);
  if (!view || view.trusted || !view.folder || view.untrustedTools.length === 0) return null;
  if (dismissed === trustNoticeKey(view)) return null;
  const folder = view.folder;
  const count = view.untrustedTools.length;
  return (
    <div className="trust-notice" role="region" aria-label="Untrusted workspace tools">
      <p>
        <strong>
          <span aria-hidden="true">⚠ </span>This workspace has {count} tool{count === 1 ? '' : 's'} of its own
          that you have not trusted:
        </strong>{' '}
        {view.untrustedTools.join(', ')} <span className="path">({folder})</span>. Until you trust the folder
        they ask on every call and get no secrets. Trust it only if you trust whoever wrote its files.
      </p>
      <div className="dialog-buttons">
        <button type="button" disabled={busy} onClick={() => void trustFolder(folder)}>
          Trust this folder
        </button>
        <button type="button" className="link-button" onClick={dismiss}>
          Not now
        </button>
      </div>
    </div>
  );
}
