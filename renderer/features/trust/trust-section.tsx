// The Settings screen's trusted folders (docs/security.md, "Workspace trust"): the list with Revoke, and the
// workspace the app loads tools from, with "Trust this folder" when it is not trusted (or "again" when tools are new
// or changed since, or it was trusted before tools were recorded).
import { useEffect } from 'react';
import { useAppStore } from '../../store/app-store';

/** The trusted-folders part of the settings screen. */
export function TrustSection() {
  const folders = useAppStore((s) => s.trustedFolders);
  const problem = useAppStore((s) => s.trustProblem);
  const busy = useAppStore((s) => s.trustBusy);
  const loadTrustedFolders = useAppStore((s) => s.loadTrustedFolders);
  const loadWorkspaceTrust = useAppStore((s) => s.loadWorkspaceTrust);
  const revokeTrust = useAppStore((s) => s.revokeTrust);
  useEffect(() => {
    void loadTrustedFolders();
    void loadWorkspaceTrust();
  }, [loadTrustedFolders, loadWorkspaceTrust]);
  return (
    <section aria-labelledby="trust-heading">
      <h2 id="trust-heading">Trusted folders</h2>
      <p className="muted">
        Tools a folder carries in .config/agenvoy/tools are untrusted until you trust that folder: until then
        they ask on every call, get no secrets and never replace a global tool of the same name.
      </p>
      {problem && (
        <p className="warning" role="note">
          {problem}
        </p>
      )}
      <CurrentWorkspace />
      <ul className="trusted-folders" aria-label="Trusted folders">
        {folders.map((folder) => (
          <li key={folder.path} aria-label={`Trusted folder ${folder.path}`}>
            <span className="path">{folder.path}</span>{' '}
            <span className="muted">since {new Date(folder.trustedAt).toLocaleString()}</span>{' '}
            {!folder.exists && <span className="badge">gone: trusts nothing</span>}{' '}
            {folder.tools === null ? (
              <span className="badge">trusted before its tools were recorded: trust it again</span>
            ) : (
              <span className="muted">
                {folder.tools.length} tool{folder.tools.length === 1 ? '' : 's'} trusted
              </span>
            )}{' '}
            <button
              type="button"
              className="small"
              disabled={busy}
              onClick={() => void revokeTrust(folder.path)}
            >
              Revoke
            </button>
          </li>
        ))}
        {folders.length === 0 && !problem && <li className="muted">No folder is trusted.</li>}
      </ul>
    </section>
  );
}

function CurrentWorkspace() {
  const view = useAppStore((s) => s.workspaceTrust);
  const busy = useAppStore((s) => s.trustBusy);
  const trustFolder = useAppStore((s) => s.trustFolder);
  if (!view) return null;
  const tools = view.tools.length;
  return (
    <p className="current-workspace">
      Tools are loaded from the workspace <span className="path">{view.folder ?? view.workspace}</span>:{' '}
      <strong>
        {view.trusted
          ? view.changedTools.length > 0
            ? `trusted, but ${view.changedTools.length} tool${view.changedTools.length === 1 ? ' is' : 's are'} new or changed since`
            : 'trusted'
          : 'not trusted'}
      </strong>
      {tools > 0
        ? ` (${tools} tool${tools === 1 ? '' : 's'} of its own: ${view.tools.join(', ')})`
        : ' (no tools of its own)'}
      .{' '}
      {(!view.trusted || view.untrustedTools.length > 0) && view.folder && (
        <button
          type="button"
          className="small"
          disabled={busy}
          onClick={() => void trustFolder(view.folder as string)}
        >
          {view.trusted || view.retrust ? 'Trust this folder again' : 'Trust this folder'}
        </button>
      )}
    </p>
  );
}
