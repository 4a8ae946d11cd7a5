// One call of an approval request in full: tool, source, flags, timeout, how it runs, warnings and the complete
// arguments.
import type { ApprovalItemView } from '../../../preload/contract';
import { sourceLabel } from '../tool-catalog/call-labels';
import { formatLimit } from '../../shared/time/format-duration';
import { ApprovalRunNote } from './approval-run-note';

/** Everything the user is shown about a call (docs/security.md, "Decisions and rules"). */
export function ApprovalItemDetails({ item }: { item: ApprovalItemView }) {
  const flags = Object.entries(item.flags)
    .filter(([, on]) => on)
    .map(([name]) => name);
  return (
    <div className="approval-item">
      <dl className="facts">
        <dt>Tool</dt>
        <dd className="tool-name">{item.tool}</dd>
        <dt>Source</dt>
        <dd>{sourceLabel(item.source)}</dd>
        <dt>Flags</dt>
        <dd>{flags.length > 0 ? flags.join(', ') : 'none'}</dd>
        <dt>Time limit</dt>
        <dd>{formatLimit(item.timeoutMs)}</dd>
        {item.source.kind === 'script' && (
          <>
            <dt>Folder</dt>
            <dd className="path">{item.source.dir}</dd>
          </>
        )}
        {item.source.kind === 'script' && item.source.writable.length > 0 && (
          <>
            <dt>Also writes</dt>
            <dd>
              <ul className="plain-list" aria-label="Folders it may also write">
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
          Sensitive: {item.sensitive}. This always asks; no standing approval covers it.
        </p>
      )}
      {item.compound && (
        <p className="warning" role="note">
          The command chains with “{item.compound}”: no chat grant or allow rule can cover it, so it can only
          be allowed once.
        </p>
      )}
      {item.voidedRules.length > 0 && (
        <p className="warning" role="note">
          {voidedNote(item.voidedRules)}
        </p>
      )}
      <div className="field-label">Arguments</div>
      <pre className="tool-args" aria-label="Arguments">
        {item.args}
      </pre>
    </div>
  );
}

// The allow rules a changed definition voided, named: the person can find them in the rules panel.
function voidedNote(ids: readonly string[]): string {
  const one = ids.length === 1;
  return (
    `Voided ${one ? 'rule' : 'rules'} ${ids.join(', ')}: the tool’s definition changed since ` +
    `${one ? 'it' : 'they'} approved it, so ${one ? 'it no longer applies' : 'they no longer apply'}.`
  );
}
