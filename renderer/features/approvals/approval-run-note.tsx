// How an approved call would run (docs/security.md, "The OS sandbox" and "Leaving the sandbox"), in words: in the
// sandbox, or unconfined with the person's full access; and why only a decision for this very call can allow it.
import type { ApprovalItemView, CallSandboxView } from '../../../preload/contract';

/** Whether the call would run outside any OS sandbox (it asked for `sandbox: false`, or none exists here). */
export function runsUnconfined(sandbox: CallSandboxView): boolean {
  return sandbox === 'unconfined_requested' || sandbox === 'unconfined_unavailable';
}

/** The words for each way a call can run; null for a call that starts no process. */
export function sandboxWords(sandbox: CallSandboxView): { title: string; detail: string } | null {
  switch (sandbox) {
    case 'none':
      return null;
    case 'sandboxed':
      return {
        title: 'Runs in the OS sandbox',
        detail:
          'writes only in the workspace and a temp folder of its own; secret locations such as ~/.ssh, ' +
          'credentials, keyrings and .env files hidden; no API key of the app; network to public hosts only, ' +
          'none when a rule allows it without asking',
      };
    case 'unconfined_requested':
      return {
        title: 'Runs UNCONFINED',
        detail:
          'with your full access to files and the network — the model asked for sandbox: false. It can read ' +
          'your keys and change any of your files. Allow it only if you have read the whole command.',
      };
    case 'unconfined_unavailable':
      return {
        title: 'No OS sandbox on this machine: runs unconfined',
        detail:
          'with your full access to files and the network. Settings › Sandbox says why no sandbox can start.',
      };
  }
}

/** The "how it runs" line of one approval item, and its person-only and no-standing reasons. */
export function ApprovalRunNote({ item }: { item: ApprovalItemView }) {
  const words = sandboxWords(item.sandbox);
  const unconfined = runsUnconfined(item.sandbox);
  return (
    <>
      {words && (
        <div
          className={`run-note ${unconfined ? 'unconfined' : 'sandboxed'}`}
          role="note"
          aria-label="How it runs"
        >
          <strong>
            {unconfined && <span aria-hidden="true">⚠ </span>}
            {words.title}
          </strong>
          {unconfined ? `, ${words.detail}` : ` (${words.detail})`}
        </div>
      )}
      {item.personOnly && (
        <p className="warning" role="note" aria-label="Only this call">
          Only your decision for this very call can allow it, because it {item.personOnly}. No rule, chat
          grant or “always” answer covers it.
        </p>
      )}
      {item.noStanding && (
        <p className="warning" role="note" aria-label="No standing approval">
          No standing approval applies: {item.noStanding}.
        </p>
      )}
    </>
  );
}
