// The MCP servers of mcp.json: connection state, tool count, warnings, and Reconnect.
import type { McpServerItem, McpStateView } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';

/** The MCP section of the tools panel. */
export function McpServers() {
  const servers = useAppStore((s) => s.mcpServers);
  const problems = useAppStore((s) => s.mcpProblems);
  return (
    <section aria-labelledby="mcp-heading">
      <h2 id="mcp-heading">MCP servers</h2>
      {problems.map((p, i) => (
        <p key={i} className="warning">
          {p}
        </p>
      ))}
      {servers.length === 0 ? (
        <p className="muted">No MCP servers configured (mcp.json).</p>
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
  const reconnect = useAppStore((s) => s.reconnectMcp);
  const busy = useAppStore((s) => s.reconnecting.includes(server.name));
  return (
    <li className={`mcp-server state-${server.state.status}`} aria-label={`MCP server ${server.name}`}>
      <div className="task-head">
        <span className="tool-name">{server.name}</span>
        <span className="badge">{server.endpoint ?? 'unknown'}</span>
        <span className={`badge status-${server.state.status}`}>{stateText(server.state)}</span>
        <button
          type="button"
          disabled={busy || server.state.status === 'disabled'}
          onClick={() => void reconnect(server.name)}
        >
          {busy ? 'Reconnecting…' : 'Reconnect'}
        </button>
      </div>
      <div className="muted">{server.tools.length} tools</div>
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
      return `connecting (attempt ${state.attempt})`;
    case 'ready':
      return `ready over ${state.transport}`;
    case 'failed':
      return `failed: ${state.reason}${state.credential ? ` (key ${state.credential.key} ${state.credential.reason})` : ''}`;
    case 'disabled':
      return 'disabled';
    case 'reconnecting':
      return `reconnecting (attempt ${state.attempt}): ${state.reason}`;
  }
}
