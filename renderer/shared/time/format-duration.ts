// Durations as people read them: "850 ms", "12.4 s", "4 min 05 s", "1 h 02 min" (zh-TW: "4 分 05 秒"). The numbers go
// through Intl in the UI's language; the unit words come from the catalogue.
import { t } from '../../i18n/i18n';
import { numberFormat } from '../format/intl-format';

const whole = (n: number) => numberFormat().format(n);
const padded = (n: number) => numberFormat({ minimumIntegerDigits: 2 }).format(n);

/** A duration in words short enough for a card header. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return t('time.s', { n: whole(0) });
  if (ms < 1000) return t('time.ms', { n: whole(Math.round(ms)) });
  if (ms < 10_000) {
    const tenths = numberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return t('time.s', { n: tenths.format(Math.floor(ms / 100) / 10) });
  }
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return t('time.s', { n: whole(seconds) });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60)
    return `${t('time.min', { n: whole(minutes) })} ${t('time.s', { n: padded(seconds % 60) })}`;
  return `${t('time.h', { n: whole(Math.floor(minutes / 60)) })} ${t('time.min', { n: padded(minutes % 60) })}`;
}

/** A limit in words; null means the call has none. */
export function formatLimit(ms: number | null): string {
  return ms === null ? t('time.noLimit') : formatDuration(ms);
}
