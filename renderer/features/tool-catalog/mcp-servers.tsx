// The MCP servers of mcp.json: connection state, tool count, warnings, and Reconnect.
import type { McpServerItem, McpStateView } from '../../../preload/contract';
import { t as translate, useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';

/** The MCP section of the tools panel. */
export function McpServers() {
  const { t } = useTranslation();
  const servers = useAppStore((s) => s.mcpServers);
  const problems = useAppStore((s) => s.mcpProblems);
  return (
    <section aria-labelledby="mcp-heading">
      <h2 id="mcp-heading">{t('tools.mcpHeading')}</h2>
      {problems.map((p, i) => (
        <p key={i} className="warning">
          {p}
        </p>
      ))}
      {servers.length === 0 ? (
        <p className="muted">{t('tools.noMcp')}</p>
      ) : (
        <ul className="mcp-list">
          {servers.map((server) => (
            <ServerRow key={server.name} server={server} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ServerRow({ server }: { server: McpServerItem }) {
  const { t } = useTranslation();
  const reconnect = useAppStore((s) => s.reconnectMcp);
  const busy = useAppStore((s) => s.reconnecting.includes(server.name));
  const review = useAppStore((s) => s.reviewMcpChanges);
  const reviewing = useAppStore((s) => s.reviewing.includes(server.name));
  return (
    <li
      className={`mcp-server state-${server.state.status}`}
      aria-label={t('tools.mcpServer', { name: server.name })}
    >
      <div className="task-head">
        <span className="tool-name">{server.name}</span>
        <span className="badge">{server.endpoint ?? t('tools.unknown')}</span>
        <span className={`badge status-${server.state.status}`}>{stateText(server.state)}</span>
        <button
          type="button"
          disabled={busy || server.state.status === 'disabled'}
          onClick={() => void reconnect(server.name)}
        >
          {busy ? t('tools.reconnecting') : t('tools.reconnect')}
        </button>
      </div>
      <div className="muted">{t('tools.toolCount', { count: server.tools.length })}</div>
      {server.changed.length > 0 && (
        <div className="warning" role="status">
          {t('tools.changedTools', { count: server.changed.length })}{' '}
          <button type="button" disabled={reviewing} onClick={() => void review(server.name)}>
            {reviewing ? t('tools.reviewing') : t('tools.reviewChanges')}
          </button>
        </div>
      )}
      {server.warnings.map((w, i) => (
        <div key={i} className="warning">
          {w}
        </div>
      ))}
    </li>
  );
}

function stateText(state: McpStateView): string {
  switch (state.status) {
    case 'connecting':
      return translate('tools.state.connecting', { attempt: state.attempt });
    case 'ready':
      return translate('tools.state.ready', { transport: state.transport });
    case 'failed':
      return state.credential
        ? translate('tools.state.failedKey', {
            reason: state.reason,
            key: state.credential.key,
            why: state.credential.reason,
          })
        : translate('tools.state.failed', { reason: state.reason });
    case 'disabled':
      return translate('tools.state.disabled');
    case 'reconnecting':
      return translate('tools.state.reconnecting', { attempt: state.attempt, reason: state.reason });
  }
}
