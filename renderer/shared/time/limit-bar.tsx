// Elapsed time against a limit, as a bar and a countdown: shared by tool-call cards and the tasks panel.
import { useTranslation } from '../../i18n/i18n';
import { formatDuration, formatLimit } from './format-duration';

/** Props of LimitBar. */
export interface LimitBarProps {
  elapsedMs: number;
  limitMs: number | null;
  /** Still counting (running) or frozen at the end. */
  live: boolean;
  /** What is timed, for the bar's accessible name. */
  label: string;
}

/** A progress bar of elapsed / limit with "12 s of 30 s · 18 s left" (or "no limit"). */
export function LimitBar({ elapsedMs, limitMs, live, label }: LimitBarProps) {
  const { t } = useTranslation();
  const fraction = limitMs ? Math.min(1, elapsedMs / limitMs) : 0;
  const left = limitMs === null ? null : Math.max(0, limitMs - elapsedMs);
  const urgent = left !== null && limitMs !== null && live && left <= Math.max(5000, limitMs * 0.1);
  const text =
    limitMs === null
      ? `${formatDuration(elapsedMs)} · ${t('time.noLimit')}`
      : t('time.of', { elapsed: formatDuration(elapsedMs), limit: formatLimit(limitMs) }) +
        (live ? t('time.left', { left: formatDuration(left ?? 0) }) : '');
  return (
    <div className={`limit-bar${urgent ? ' urgent' : ''}`}>
      {limitMs !== null && (
        <progress
          aria-label={t('time.timeUsed', { label })}
          max={limitMs}
          value={Math.min(elapsedMs, limitMs)}
          data-fraction={fraction.toFixed(2)}
        />
      )}
      <span className="limit-text" role="timer" aria-live="off">
        {text}
      </span>
    </div>
  );
}
