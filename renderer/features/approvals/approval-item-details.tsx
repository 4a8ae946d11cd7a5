// One call of an approval request in full: tool, source, flags, timeout, how it runs, warnings and the complete
// arguments.
import type { ApprovalItemView } from '../../../preload/contract';
import { t as translate, useTranslation } from '../../i18n/i18n';
import { sourceLabel } from '../tool-catalog/call-labels';
import { formatLimit } from '../../shared/time/format-duration';
import { ApprovalRunNote } from './approval-run-note';

/** Everything the user is shown about a call (docs/security.md, "Decisions and rules"). */
export function ApprovalItemDetails({ item }: { item: ApprovalItemView }) {
  const { t } = useTranslation();
  const flags = Object.entries(item.flags)
    .filter(([, on]) => on)
    .map(([name]) => name);
  return (
    <div className="approval-item">
      <dl className="facts">
        <dt>{t('approval.tool')}</dt>
        <dd className="tool-name">{item.tool}</dd>
        <dt>{t('approval.source')}</dt>
        <dd>{sourceLabel(item.source)}</dd>
        <dt>{t('approval.flags')}</dt>
        <dd>{flags.length > 0 ? flags.join(', ') : t('approval.none')}</dd>
        <dt>{t('approval.timeLimit')}</dt>
        <dd>{formatLimit(item.timeoutMs)}</dd>
        {item.source.kind === 'script' && (
          <>
            <dt>{t('approval.folder')}</dt>
            <dd className="path">{item.source.dir}</dd>
          </>
        )}
        {item.source.kind === 'script' && item.source.writable.length > 0 && (
          <>
            <dt>{t('approval.alsoWrites')}</dt>
            <dd>
              <ul className="plain-list" aria-label={t('approval.alsoWritesList')}>
                {item.source.writable.map((dir) => (
                  <li key={dir} className="path">
                    {dir}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
      <ApprovalRunNote item={item} />
      {item.sensitive && (
        <p className="warning" role="note">
          {t('approval.sensitive', { what: item.sensitive })}
        </p>
      )}
      {item.compound && (
        <p className="warning" role="note">
          {t('approval.compound', { op: item.compound })}
        </p>
      )}
      {item.voidedRules.length > 0 && (
        <p className="warning" role="note">
          {voidedNote(item.voidedRules)}
        </p>
      )}
      <div className="field-label">{t('call.arguments')}</div>
      <pre className="tool-args" aria-label={t('call.arguments')}>
        {item.args}
      </pre>
    </div>
  );
}

// The allow rules a changed definition voided, named: the person can find them in the rules panel.
function voidedNote(ids: readonly string[]): string {
  return translate(ids.length === 1 ? 'approval.voidedOne' : 'approval.voidedMany', { ids: ids.join(', ') });
}
