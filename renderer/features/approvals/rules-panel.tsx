// The approval rules (shipped defaults and the user's), each revocable.
import { useEffect } from 'react';
import type { RuleItem } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';

/** The rules panel. */
export function RulesPanel() {
  const rules = useAppStore((s) => s.rules);
  const problem = useAppStore((s) => s.rulesProblem);
  const loadRules = useAppStore((s) => s.loadRules);
  useEffect(() => void loadRules(), [loadRules]);
  return (
    <main className="panel" aria-label="Rules">
      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading">Approval rules</h2>
        <p className="muted">
          Deny rules beat allow rules. Sensitive targets always ask, whatever the rules say.
        </p>
        {problem && (
          <p className="warning" role="alert">
            {problem}
          </p>
        )}
        {rules.length === 0 && !problem && <p className="muted">No rules.</p>}
        <ul className="rules-list">
          {rules.map((rule) => (
            <RuleRow key={rule.id} rule={rule} />
          ))}
        </ul>
      </section>
    </main>
  );
}

function RuleRow({ rule }: { rule: RuleItem }) {
  const revoke = useAppStore((s) => s.revokeRule);
  return (
    <li
      className={`rule effect-${rule.effect}${rule.void ? ' void' : ''}`}
      aria-label={`Rule ${rule.effect} ${rule.tool}`}
    >
      <div className="task-head">
        <span className={`badge effect-${rule.effect}`}>{rule.effect}</span>
        <code>{rule.tool}</code>
        {rule.pattern !== null && <code className="pattern">{rule.pattern}</code>}
        <span className="muted">
          {rule.origin === 'default'
            ? 'default'
            : `added ${rule.createdAt ? new Date(rule.createdAt).toLocaleString() : ''}`}
        </span>
        <span className="spacer" />
        <button type="button" className="danger small" onClick={() => void revoke(rule.id)}>
          Revoke
        </button>
      </div>
      {rule.except.length > 0 && <div className="muted">except {rule.except.join(', ')}</div>}
      {rule.note && <div className="muted">{rule.note}</div>}
      {rule.void && (
        <div className="warning">
          Not applied: the definition of {rule.changedTools.join(', ')} changed since.
        </div>
      )}
    </li>
  );
}
