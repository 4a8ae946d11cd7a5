// The notice that the workspace carries tools the person has not trusted (docs/security.md, "Workspace trust"):
// it says what that means and offers "Trust this folder"; nothing is trusted unless the person clicks it.
import type { WorkspaceTrustView } from '../../../preload/contract';
import { t as translate, useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import { trustNoticeKey } from './trust-slice';

/** A banner over the chat and the tools screen while the tool workspace has untrusted (or new, or changed) tools. */
export function TrustNotice() {
  const { t } = useTranslation();
  const view = useAppStore((s) => s.workspaceTrust);
  const dismissed = useAppStore((s) => s.trustNoticeDismissed);
  const busy = useAppStore((s) => s.trustBusy);
  const trustFolder = useAppStore((s) => s.trustFolder);
  const dismiss = useAppStore((s) => s.dismissTrustNotice);
  if (!view || !view.folder || view.untrustedTools.length === 0) return null;
  if (dismissed === trustNoticeKey(view)) return null;
  const folder = view.folder;
  const count = view.untrustedTools.length;
  return (
    <div className="trust-notice" role="region" aria-label={t('trust.notice')}>
      {view.trusted ? (
        <p>
          <strong>
            <span aria-hidden="true">⚠ </span>
            {t('trust.changedHead', { count })}
          </strong>{' '}
          {describeChanges(view)} <span className="path">({folder})</span>.{' '}
          {t('trust.changedBody', { count })}
        </p>
      ) : (
        <p>
          <strong>
            <span aria-hidden="true">⚠ </span>
            {t('trust.untrustedHead', { count })}
          </strong>{' '}
          {view.untrustedTools.join(', ')} <span className="path">({folder})</span>.{' '}
          {view.retrust ? `${view.retrust}. ` : ''}
          {t('trust.untrustedBody')}
        </p>
      )}
      <div className="dialog-buttons">
        <button type="button" disabled={busy} onClick={() => void trustFolder(folder)}>
          {view.trusted || view.retrust ? t('trust.trustAgain') : t('trust.trustFolder')}
        </button>
        <button type="button" className="link-button" onClick={dismiss}>
          {t('trust.notNow')}
        </button>
      </div>
    </div>
  );
}

// "script_a (new), script_b (changed)": each untrusted tool and, where known, what happened to it.
function describeChanges(view: WorkspaceTrustView): string {
  const changes = new Map(view.changedTools.map((tool) => [tool.name, tool.change]));
  return view.untrustedTools.map((name) => `${name} (${changeWord(changes.get(name))})`).join(', ');
}

function changeWord(change: string | undefined): string {
  if (change === 'new') return translate('trust.new');
  if (change === 'changed') return translate('trust.changed');
  return change ?? translate('trust.cannotPin');
}
