// The live part of a running call's card: its last progress message, a progress fraction and the output tail.
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';

/** Progress of the open chat's call `callId`, as it streams in. */
export function CallProgressView({ callId }: { callId: string }) {
  const { t } = useTranslation();
  const progress = useAppStore((s) => s.chat.progress[callId]);
  if (!progress) return null;
  return (
    <div className="call-progress" aria-live="polite">
      {progress.message && <div className="progress-message">{progress.message}</div>}
      {progress.progress !== null && (
        <div className="muted">
          {progress.total ? (
            <progress aria-label={t('call.progress')} max={progress.total} value={progress.progress} />
          ) : (
            <span>{progress.progress}</span>
          )}
        </div>
      )}
      {progress.output && <pre className="output-tail">{progress.output.slice(-1500)}</pre>}
    </div>
  );
}
