// The notice that the workspace carries tools the person has not trusted (docs/security.md, "Workspace trust"):
// it says what that means and offers "Trust this folder"; nothing is trusted unless the person clicks it.
import type { WorkspaceTrustView } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';
import { trustNoticeKey } from './trust-slice';

/** A banner over the chat and the tools screen while the tool workspace has untrusted (or new, or changed) tools. */
export function TrustNotice() {
  const view = useAppStore((s) => s.workspaceTrust);
  const dismissed = useAppStore((s) => s.trustNoticeDismissed);
  const busy = useAppStore((s) => s.trustBusy);
  const trustFolder = useAppStore((s) => s.trustFolder);
  const dismiss = useAppStore((s) => s.dismissTrustNotice);
  if (!view || !view.folder || view.untrustedTools.length === 0) return null;
  if (dismissed === trustNoticeKey(view)) return null;
  const folder = view.folder;
  const count = view.untrustedTools.length;
  const plural = count === 1 ? '' : 's';
  return (
    <div className="trust-notice" role="region" aria-label="Untrusted workspace tools">
      {view.trusted ? (
        <p>
          <strong>
            <span aria-hidden="true">⚠ </span>
            {count} tool{plural} of this workspace {count === 1 ? 'is' : 'are'} new or changed since you
            trusted it:
          </strong>{' '}
          {describeChanges(view)} <span className="path">({folder})</span>. Until you trust the folder again{' '}
          {count === 1 ? 'it asks' : 'they ask'} on every call and get{count === 1 ? 's' : ''} no secrets.
          Look at what changed before you trust it again.
        </p>
      ) : (
        <p>
          <strong>
            <span aria-hidden="true">⚠ </span>This workspace has {count} tool{plural} of its own that you have
            not trusted:
          </strong>{' '}
          {view.untrustedTools.join(', ')} <span className="path">({folder})</span>.{' '}
          {view.retrust ? `${view.retrust}. ` : ''}Until you trust the folder they ask on every call and get
          no secrets. Trust it only if you trust whoever wrote its files.
        </p>
      )}
      <div className="dialog-buttons">
        <button type="button" disabled={busy} onClick={() => void trustFolder(folder)}>
          {view.trusted || view.retrust ? 'Trust this folder again' : 'Trust this folder'}
        </button>
        <button type="button" className="link-button" onClick={dismiss}>
          Not now
        </button>
      </div>
    </div>
  );
}

// "script_a (new), script_b (changed)": each untrusted tool and, where known, what happened to it.
function describeChanges(view: WorkspaceTrustView): string {
  const changes = new Map(view.changedTools.map((tool) => [tool.name, tool.change]));
  return view.untrustedTools.map((name) => `${name} (${changes.get(name) ?? 'cannot be pinned'})`).join(', ');
}
