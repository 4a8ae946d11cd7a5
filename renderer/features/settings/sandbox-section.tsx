// The Settings screen's "Sandbox" section (docs/security.md, "The OS sandbox"): whether commands and script tools
// run confined here, with which backend and what it allows; or why not, and what that means for approvals.
import { useEffect } from 'react';
import { useAppStore } from '../../store/app-store';

/** The sandbox part of the settings screen. */
export function SandboxSection() {
  const sandbox = useAppStore((s) => s.sandbox);
  const loadSandbox = useAppStore((s) => s.loadSandbox);
  useEffect(() => {
    void loadSandbox();
  }, [loadSandbox]);
  return (
    <section aria-labelledby="sandbox-heading">
      <h2 id="sandbox-heading">Sandbox</h2>
      {!sandbox ? (
        <p className="muted">Checking…</p>
      ) : sandbox.state === 'ready' ? (
        <>
          <dl className="facts">
            <dt>State</dt>
            <dd>
              <strong>ready</strong> — commands and script tools run in the OS sandbox
            </dd>
            <dt>Backend</dt>
            <dd>
              <code>{sandbox.backend}</code>
            </dd>
          </dl>
          <ul className="sandbox-policy" aria-label="What a sandboxed command may do">
            {sandbox.policy.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : (
        <>
          <dl className="facts">
            <dt>State</dt>
            <dd>
              <strong>unavailable</strong> — commands run unconfined
            </dd>
          </dl>
          <p className="warning" role="note" aria-label="Why there is no sandbox">
            <span aria-hidden="true">⚠ </span>No OS sandbox can start here: {sandbox.reason}
          </p>
          <p>{sandbox.consequence}</p>
        </>
      )}
    </section>
  );
}
