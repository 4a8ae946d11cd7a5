// Numbers, sizes and dates in the UI's language through Intl ("Dec 3, 2026, 2:05 PM" / "2026年12月3日 下午2:05").
import { currentLanguage, t } from '../../i18n/i18n';

const cache = new Map<string, Intl.NumberFormat>();

/** A cached Intl.NumberFormat for the UI's language now. */
export function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${currentLanguage()}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.NumberFormat(currentLanguage(), options);
    cache.set(key, format);
  }
  return format;
}

/** A count: "12,345". */
export function formatNumber(value: number): string {
  return numberFormat().format(value);
}

/** A moment (epoch ms or ISO text) with date and time, as the language writes it. */
export function formatDateTime(when: number | string): string {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) return String(when);
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A byte count: "812 bytes", "12.5 KB", "3.75 MB" (1,024 a step; the number through Intl). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return t('time.bytes', { count: bytes });
  const [value, key] = bytes < 1024 * 1024 ? [bytes / 1024, 'time.kb'] : [bytes / (1024 * 1024), 'time.mb'];
  return t(key as 'time.kb', { n: numberFormat({ maximumFractionDigits: 2 }).format(value) });
}
