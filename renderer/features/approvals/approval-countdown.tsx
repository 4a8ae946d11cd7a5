// How long an approval waits before it is denied by itself (off by default in the app).
import { useTranslation } from '../../i18n/i18n';
import { formatDuration } from '../../shared/time/format-duration';
import { useNow } from '../../shared/time/use-now';

/** "Denied automatically in 9 min 58 s", or nothing when the request has no time-out. */
export function ApprovalCountdown({ openedAt, timeoutMs }: { openedAt: number; timeoutMs: number | null }) {
  const { t } = useTranslation();
  const now = useNow(timeoutMs !== null, 1000);
  if (timeoutMs === null) return null;
  return (
    <span>{t('approval.deniedIn', { time: formatDuration(Math.max(0, openedAt + timeoutMs - now)) })}</span>
  );
}
