// What identifies a file's content without reading it, for caches of a file's reading (settings.json, the JSON stores,
// tool pins, the embedding choice): its device, inode, size and times. File times advance in steps of a few
// milliseconds, so two writes of one size inside a step look alike; a file changed in the last moments has no stamp
// and is read again each time (git's "racily clean" rule).
import type { Stats } from 'node:fs';

/** How long after its last change a file's stamp is trusted, by default. */
export const STAMP_SETTLE_MS = 100;

/** The file's stamp, or null while it changed too recently for one to identify its content. */
export function fileStamp(
  stat: Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>,
  settleMs: number = STAMP_SETTLE_MS,
  now: number = Date.now(),
): string | null {
  if (now - Math.max(stat.mtimeMs, stat.ctimeMs) <= settleMs) return null;
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}
