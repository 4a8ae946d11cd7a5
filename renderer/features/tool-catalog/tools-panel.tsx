// The tools screen: every tool with its source, flags, timeout, lint findings, warnings and broken step, and the
// MCP servers.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { ToolView } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';
import { formatLimit } from '../../shared/time/format-duration';
import { McpServers } from './mcp-servers';
import { TrustNotice } from '../trust/trust-notice';

const flagNames = ['alwaysAllow', 'concurrent', 'background', 'systemUse'] as const;

/** The tools panel. */
export function ToolsPanel() {
  const { t } = useTranslation();
  const tools = useAppStore((s) => s.tools);
  const loadTools = useAppStore((s) => s.loadTools);
  const loadMcp = useAppStore((s) => s.loadMcp);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    void loadTools();
    void loadMcp();
  }, [loadTools, loadMcp]);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return q ? tools.filter((t) => t.name.includes(q) || (t.origin ?? '').toLowerCase().includes(q)) : tools;
  }, [tools, filter]);
  const findings = tools.reduce((n, t) => n + t.lint.length, 0);
  const broken = tools.filter((t) => t.broken).length;
  return (
    <main className="panel" aria-label={t('tools.label')}>
      <TrustNotice />
      <McpServers />
      <section aria-labelledby="tools-heading">
        <h2 id="tools-heading">
          {t('tools.heading')}{' '}
          <span className="muted">
            {t('tools.registered', { count: tools.length })}
            {broken > 0 ? t('tools.broken', { count: broken }) : ''}
            {t('tools.findings', { count: findings })}
          </span>
        </h2>
        <input
          type="search"
          aria-label={t('tools.filter')}
          placeholder={t('tools.filterPlaceholder')}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <table className="tools-table">
          <thead>
            <tr>
              <th>{t('tools.name')}</th>
              <th>{t('tools.source')}</th>
              <th>{t('tools.flags')}</th>
              <th>{t('tools.timeout')}</th>
              <th>{t('tools.lint')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((tool) => (
              <ToolRow key={tool.name} tool={tool} />
            ))}
          </tbody>
        </table>
      </section>
    </main>
  );
}

function ToolRow({ tool }: { tool: ToolView }) {
  const { t } = useTranslation();
  return (
    <tr className={tool.broken ? 'broken' : undefined}>
      <td>
        <div className="tool-name">{tool.name}</div>
        {tool.broken && (
          // Words, not only a colour: which step failed and why, and what that means for the tool.
          <div className="badge broken" role="status" aria-label={t('tools.isBroken', { tool: tool.name })}>
            {t('tools.brokenAt', { step: tool.broken.step, reason: tool.broken.reason })}
          </div>
        )}
        <div className="muted description">{tool.description.split('\n')[0]}</div>
        {tool.warnings && tool.warnings.length > 0 && (
          <ul className="plain-list tool-warnings" aria-label={t('tools.warnings', { tool: tool.name })}>
            {tool.warnings.map((warning, i) => (
              <li key={i}>{warning}</li>
            ))}
          </ul>
        )}
      </td>
      <td>
        {tool.source}
        {tool.origin && <div className="muted path">{tool.origin}</div>}
        {tool.trusted === false && (
          // docs/security.md, "Workspace trust": words, not only a colour.
          <div className="badge untrusted">{t('tools.untrusted')}</div>
        )}
        {tool.writable && tool.writable.length > 0 && (
          <div className="muted">
            {t('tools.alsoWrites')}{' '}
            <ul className="plain-list" aria-label={t('tools.alsoWritesList', { tool: tool.name })}>
              {tool.writable.map((dir) => (
                <li key={dir} className="path">
                  {dir}
                </li>
              ))}
            </ul>
          </div>
        )}
      </td>
      <td>
        {flagNames.filter((f) => tool.flags[f]).join(', ') || '—'}
        {!tool.offeredHeadless && !tool.broken && <div className="muted">{t('tools.notHeadless')}</div>}
      </td>
      <td>{formatLimit(tool.timeoutMs)}</td>
      <td>
        {tool.lint.length === 0 ? (
          <span className="muted">{t('tools.clean')}</span>
        ) : (
          <ul className="lint">
            {tool.lint.map((f, i) => (
              <li key={i} className={f.level}>
                <code>{f.code}</code> {f.message}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
