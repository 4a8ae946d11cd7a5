// How an approved call would run (docs/security.md, "The OS sandbox" and "Leaving the sandbox"), in words: in the
// sandbox, or unconfined with the person's full access; and why only a decision for this very call can allow it.
import type { ApprovalItemView, CallSandboxView } from '../../../preload/contract';
import { t, useTranslation } from '../../i18n/i18n';

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
      return { title: t('approval.sandboxedTitle'), detail: t('approval.sandboxedDetail') };
    case 'unconfined_requested':
      return { title: t('approval.unconfinedTitle'), detail: t('approval.unconfinedDetail') };
    case 'unconfined_unavailable':
      return { title: t('approval.noSandboxTitle'), detail: t('approval.noSandboxDetail') };
  }
}

/** The "how it runs" line of one approval item, and its person-only and no-standing reasons. */
export function ApprovalRunNote({ item }: { item: ApprovalItemView }) {
  useTranslation();
  const words = sandboxWords(item.sandbox);
  const unconfined = runsUnconfined(item.sandbox);
  return (
    <>
      {words && (
        <div
          className={`run-note ${unconfined ? 'unconfined' : 'sandboxed'}`}
          role="note"
          aria-label={t('approval.howItRuns')}
        >
          <strong>
            {unconfined && <span aria-hidden="true">⚠ </span>}
            {words.title}
          </strong>
          {unconfined ? `, ${words.detail}` : ` (${words.detail})`}
        </div>
      )}
      {item.personOnly && (
        <p className="warning" role="note" aria-label={t('approval.onlyThisCall')}>
          {t('approval.personOnly', { why: item.personOnly })}
        </p>
      )}
      {item.noStanding && (
        <p className="warning" role="note" aria-label={t('approval.noStandingLabel')}>
          {t('approval.noStanding', { why: item.noStanding })}
        </p>
      )}
    </>
  );
}
