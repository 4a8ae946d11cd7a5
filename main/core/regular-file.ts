// Reading a file that someone else may have put in place: the app's own JSON files, settings.json, .secrets, a
// repository's tool.json. One reader for all of them (docs/robustness.md, "The app's own files"), so each gets the same
// three guards:
// - opened with O_NONBLOCK, so a fifo in the file's place opens at once instead of waiting for a writer for ever (a
//   sync open would stop the whole process; an async one holds one of libuv's four file threads, and every gate
//   decision queued behind it);
// - checked on the open handle to be a regular file, so a fifo, a socket or a device (a link to /dev/zero, read until
//   memory runs out) is refused, and a swap after an earlier stat changes nothing;
// - never more than `limit` + 1 bytes read, whatever the file's size says or becomes while it is read.
import fsSync, { constants } from 'node:fs';
import fs from 'node:fs/promises';

/** The message of a file that is not a regular file (a fifo, a device, a socket, a folder). */
export const NOT_A_REGULAR_FILE = 'it is not a regular file';

/** A file larger than the reader's limit: when `size` is known from the open handle, or it grew past it while read. */
export class FileTooLargeError extends Error {
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(`it is ${size} bytes, more than ${limit}`);
    this.name = 'FileTooLargeError';
  }
}

export interface RegularFileOptions {
  /** O_NOFOLLOW: a link in the last part of the path is refused (ELOOP) instead of followed. */
  noFollow?: boolean;
}

function flagsOf(options: RegularFileOptions): number {
  return (
    constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0)
  );
}

/** The buffer a read of a `size`-byte file under `limit` fills: one byte more, so growth past the size is seen. */
function bufferFor(size: number, limit: number): Buffer {
  if (size > limit) throw new FileTooLargeError(size, limit);
  return Buffer.alloc(size + 1);
}

function textOf(buffer: Buffer, length: number, size: number, limit: number): string {
  // A file that grew while it was read: past the limit it is too large; within it, read again next time.
  if (length > size) {
    if (length > limit) throw new FileTooLargeError(length, limit);
    throw new Error('it changed while being read');
  }
  return buffer.toString('utf8', 0, length);
}

/** The UTF-8 text of a regular file of at most `limit` bytes; throws for anything else (errno errors pass through). */
export async function readRegularFile(
  file: string,
  limit: number,
  options: RegularFileOptions = {},
): Promise<string> {
  const handle = await fs.open(file, flagsOf(options));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(NOT_A_REGULAR_FILE);
    const buffer = bufferFor(stat.size, limit);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      // A read that reaches the size is the end of a regular file: no second read to learn it.
      if (length === stat.size) break;
    }
    return textOf(buffer, length, stat.size, limit);
  } finally {
    await handle.close();
  }
}

/** readRegularFile for start-up paths that cannot wait (settings.json, the secrets file). */
export function readRegularFileSync(file: string, limit: number, options: RegularFileOptions = {}): string {
  const fd = fsSync.openSync(file, flagsOf(options));
  try {
    const stat = fsSync.fstatSync(fd);
    if (!stat.isFile()) throw new Error(NOT_A_REGULAR_FILE);
    const buffer = bufferFor(stat.size, limit);
    let length = 0;
    while (length < buffer.length) {
      const bytesRead = fsSync.readSync(fd, buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === stat.size) break;
    }
    return textOf(buffer, length, stat.size, limit);
  } finally {
    fsSync.closeSync(fd);
  }
}
