// The write_result deliverables of the open chat: title, file and size.
import { useTranslation } from '../../i18n/i18n';
import { formatBytes } from '../../shared/format/intl-format';
import { useAppStore } from '../../store/app-store';

/** Deliverables saved into the workspace, shown once there is one. */
export function ResultsList() {
  const { t } = useTranslation();
  const results = useAppStore((s) => s.chat.results);
  if (results.length === 0) return null;
  return (
    <section className="results" aria-label={t('chat.deliverables')}>
      <h2>{t('chat.deliverables')}</h2>
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
