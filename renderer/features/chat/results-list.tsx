// The write_result deliverables of the open chat: title, file and size.
import { useAppStore } from '../../store/app-store';

/** Deliverables saved into the workspace, shown once there is one. */
export function ResultsList() {
  const results = useAppStore((s) => s.chat.results);
  if (results.length === 0) return null;
  return (
    <section className="results" aria-label="Deliverables">
      <h2>Deliverables</h2>
      <ul>
        {results.map((result) => (
          <li key={result.path}>
            <div className="result-title">{result.title}</div>
            <div className="muted path" title={result.path}>
              {result.path} · {formatBytes(result.bytes)}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
