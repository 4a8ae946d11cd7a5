// The confirm-gate dialog (docs/security.md, "Decisions and rules"): every call of the batch, the current one in full with all six decisions,
// a deny reason for the model and the pattern an "always" rule saves. Items are decided one by one.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { ApprovalChoice, ApprovalItemView, DialogRequest } from '../../../preload/contract';
import { ariaShortcut, matches, shortcutText } from '../../app/shortcuts';
import { DialogFrame } from '../../shared/ui/dialog-frame';
import { ApprovalItemDetails } from './approval-item-details';
import { ApprovalCountdown } from './approval-countdown';
import { runsUnconfined } from './approval-run-note';

type ApprovalRequest = Extract<DialogRequest, { kind: 'approval' }>;

/**
 * How long an item must have been on screen before it can be allowed. The next item of a batch, or the next dialog,
 * takes the place of the one just answered: without this, a double click or a key held until it repeats allowed
 * calls the person never saw (approval-timing-attack.test.tsx). Denying needs no wait.
 */
export const ALLOW_ARMS_AFTER_MS = 500;

/** Props of ApprovalDialog. */
export interface ApprovalDialogProps {
  request: ApprovalRequest;
  /** Sends one item's answer; resolves to an error message or null. */
  onAnswer: (index: number, choice: ApprovalChoice) => Promise<string | null>;
  overlay: boolean;
}

/** The approval dialog of one gate request. */
export function ApprovalDialog({ request, onAnswer, overlay }: ApprovalDialogProps) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<number | null>(null);
  const current = chosen !== null && request.pending.includes(chosen) ? chosen : (request.pending[0] ?? null);
  const item = request.items.find((i) => i.index === current) ?? null;
  const [reason, setReason] = useState('');
  const [pattern, setPattern] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The item that has been on screen long enough to be allowed; any other current item cannot be yet.
  const [armedFor, setArmedFor] = useState<number | null>(null);

  // Allow once / Deny from the keyboard wherever focus is in the window (the latest handlers, one listener).
  const keys = useRef<{ allow: () => void; deny: () => void } | null>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A held key repeats: its repeats would decide the items that come next, unseen.
      if (event.repeat) return;
      const action = matches(event, 'allowOnce') ? 'allow' : matches(event, 'deny') ? 'deny' : null;
      if (!action || !keys.current) return;
      event.preventDefault();
      keys.current[action]();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // Each item starts with its own suggestion and an empty reason, and can be allowed once it has been seen.
  useEffect(() => {
    setPattern(null);
    setReason('');
    const timer = setTimeout(() => setArmedFor(current), ALLOW_ARMS_AFTER_MS);
    return () => clearTimeout(timer);
  }, [current]);

  if (!item) {
    keys.current = null;
    return null;
  }
  const patternText = pattern ?? item.suggestedPattern ?? '';
  // Untouched: leave the pattern out (main saves its suggestion); emptied: null (any arguments).
  const rulePattern = pattern === null ? undefined : pattern.trim() === '' ? null : pattern.trim();
  const trimmedReason = reason.trim() || undefined;

  const decide = async (choice: ApprovalChoice) => {
    setBusy(true);
    setError(null);
    const problem = await onAnswer(item.index, choice);
    setBusy(false);
    if (problem) setError(problem);
  };

  const armed = armedFor === current;
  const allowOnce = () => {
    if (armed) void decide({ kind: 'allow_once' });
  };
  const deny = () => void decide({ kind: 'deny', ...(trimmedReason ? { reason: trimmedReason } : {}) });
  keys.current = busy ? null : { allow: allowOnce, deny };
  const count = request.items.length;
  const unconfined = runsUnconfined(item.sandbox);
  // docs/security.md: a call only a person's decision for that call may run, and a chained command line that no
  // grant or rule can cover, are never offered a standing approval.
  const standing = item.personOnly === null && item.compound === null;
  return (
    <DialogFrame
      title={count > 1 ? t('approval.titleMany', { count }) : t('approval.titleOne', { tool: item.tool })}
      overlay={overlay}
      className="approval-dialog"
      // The dialog opens over whatever the person was doing, often typing their next message: with the focus on
      // "Allow once", the next space or Enter they typed allowed a call they never read. It opens with the focus on
      // itself (or on Deny for an unconfined run); Alt+Shift+A, a click or Tab then Enter allows.
      focusOnOpen={unconfined ? 'control' : 'dialog'}
    >
      <p className="muted">
        {t('approval.inChat', { title: request.chatTitle })}{' '}
        <ApprovalCountdown openedAt={request.openedAt} timeoutMs={request.timeoutMs} />
      </p>
      {count > 1 && (
        <ol className="batch-items" aria-label={t('approval.calls')}>
          {request.items.map((i) => {
            const open = request.pending.includes(i.index);
            return (
              <li key={i.index}>
                <button
                  type="button"
                  className="link-button"
                  aria-current={i.index === current}
                  disabled={!open}
                  onClick={() => setChosen(i.index)}
                >
                  {i.index + 1}. {i.tool}
                </button>{' '}
                <code className="canonical">{short(i.canonical)}</code>{' '}
                {runsUnconfined(i.sandbox) && (
                  <span className="badge unconfined">{t('approval.unconfined')}</span>
                )}{' '}
                <span className="muted">{open ? t('approval.toDecide') : t('approval.decided')}</span>
              </li>
            );
          })}
        </ol>
      )}
      <ApprovalItemDetails item={item} />
      <div className="approval-fields">
        <label>
          {t('approval.reason')}
          <input
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder={t('approval.optional')}
          />
        </label>
        <label>
          {t('approval.pattern')}
          <input value={patternText} onChange={(e) => setPattern(e.target.value)} spellCheck={false} />
        </label>
      </div>
      {error && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-buttons approval-buttons">
        <button
          type="button"
          className={unconfined ? undefined : 'primary'}
          // An unconfined run is never the default: a reflexive Enter must not start it.
          data-autofocus={unconfined ? undefined : true}
          disabled={busy}
          // Not `disabled`: the button keeps the focus it opens with; it answers once the item is armed.
          aria-disabled={!armed}
          aria-keyshortcuts={ariaShortcut('allowOnce')}
          onClick={allowOnce}
        >
          {t('approval.allowOnce')} <kbd aria-hidden="true">{shortcutText('allowOnce')}</kbd>
        </button>
        {standing && (
          <button
            type="button"
            disabled={busy || !item.offers.chat}
            aria-disabled={!armed}
            onClick={() => armed && void decide({ kind: 'allow_chat' })}
          >
            {chatLabel(item.grant, t)}
          </button>
        )}
        {standing && (
          <button
            type="button"
            disabled={busy || !item.offers.always}
            aria-disabled={!armed}
            onClick={() => armed && void decide({ kind: 'allow_always', ...patternField(rulePattern) })}
          >
            {t('approval.allowAlways')}
          </button>
        )}
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() =>
            void decide({
              kind: 'deny_always',
              ...patternField(rulePattern),
              ...(trimmedReason ? { reason: trimmedReason } : {}),
            })
          }
        >
          {t('approval.denyAlways')}
        </button>
        <button
          type="button"
          className="danger"
          data-autofocus={unconfined ? true : undefined}
          disabled={busy}
          aria-keyshortcuts={ariaShortcut('deny')}
          onClick={deny}
        >
          {t('approval.deny')} <kbd aria-hidden="true">{shortcutText('deny')}</kbd>
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => void decide({ kind: 'stop' })}
        >
          {t('approval.stopTurn')}
        </button>
      </div>
    </DialogFrame>
  );
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function patternField(pattern: string | null | undefined): { pattern?: string | null } {
  return pattern === undefined ? {} : { pattern };
}

// The chat grant's button names what it covers: the site, the program (and the sites its words name), or the tool.
function chatLabel(grant: ApprovalItemView['grant'], t: ReturnType<typeof useTranslation>['t']): string {
  switch (grant.kind) {
    case 'site':
      return t('approval.allowChatSite', { site: grant.site });
    case 'program':
      return grant.sites.length > 0
        ? t('approval.allowChatProgramSites', { program: grant.program, sites: grant.sites.join(', ') })
        : t('approval.allowChatProgram', { program: grant.program });
    default:
      return t('approval.allowChat');
  }
}
