// The approval rules (shipped defaults and the user's), each revocable.
import { useEffect } from 'react';
import { useTranslation } from '../../i18n/i18n';
import { formatDateTime } from '../../shared/format/intl-format';
import type { RuleItem } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';

/** The rules panel. */
export function RulesPanel() {
  const { t } = useTranslation();
  const rules = useAppStore((s) => s.rules);
  const problem = useAppStore((s) => s.rulesProblem);
  const loadRules = useAppStore((s) => s.loadRules);
  useEffect(() => void loadRules(), [loadRules]);
  return (
    <main className="panel" aria-label={t('rules.label')}>
      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading">{t('rules.heading')}</h2>
        <p className="muted">{t('rules.intro')}</p>
        {problem && (
          <p className="warning" role="alert">
            {problem}
          </p>
        )}
        {rules.length === 0 && !problem && <p className="muted">{t('rules.none')}</p>}
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
  const { t } = useTranslation();
  const revoke = useAppStore((s) => s.revokeRule);
  return (
    <li
      className={`rule effect-${rule.effect}${rule.void ? ' void' : ''}`}
      aria-label={t('rules.rule', { effect: t(`rules.${rule.effect}`), tool: rule.tool })}
    >
      <div className="task-head">
        <span className={`badge effect-${rule.effect}`}>{t(`rules.${rule.effect}`)}</span>
        <code>{rule.tool}</code>
        {rule.pattern !== null && <code className="pattern">{rule.pattern}</code>}
        <span className="muted">
          {rule.origin === 'default'
            ? t('rules.default')
            : t('rules.added', { when: rule.createdAt ? formatDateTime(rule.createdAt) : '' })}
        </span>
        <span className="spacer" />
        <button type="button" className="danger small" onClick={() => void revoke(rule.id)}>
          {t('rules.revoke')}
        </button>
      </div>
      {rule.except.length > 0 && (
        <div className="muted">{t('rules.except', { tools: rule.except.join(', ') })}</div>
      )}
      {rule.note && <div className="muted">{rule.note}</div>}
      {rule.void && (
        <div className="warning">{t('rules.notApplied', { tools: rule.changedTools.join(', ') })}</div>
      )}
    </li>
  );
}
