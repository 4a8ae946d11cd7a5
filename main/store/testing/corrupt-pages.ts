// Damages a SQLite file the way a torn write or a failing disk does: every page after the first (the header and the
// schema) overwritten with noise. The file still opens; reading a table or an index fails with SQLITE_CORRUPT.
import fs from 'node:fs';

/** Overwrites every page of `file` but the first with deterministic noise (the file must be checkpointed and closed). */
export function corruptPages(file: string): void {
  const bytes = fs.readFileSync(file);
  const field = bytes.readUInt16BE(16);
  const pageSize = field === 1 ? 65536 : field;
  if (bytes.length <= pageSize) throw new Error(`${file} has one page only: nothing to damage`);
  let seed = 7;
  for (let at = pageSize; at < bytes.length; at++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    bytes[at] = seed & 0xff;
  }
  fs.writeFileSync(file, bytes);
}
