// The one reader of files someone else may have put in place (main/core/regular-file.ts): fifos, devices, links and
// sizes, sync and async alike.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTooLargeError, readRegularFile, readRegularFileSync } from './regular-file';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-regular-'));
  dirs.push(dir);
  return dir;
}

const readers = {
  async: (file: string, limit: number, noFollow = false) => readRegularFile(file, limit, { noFollow }),
  sync: async (file: string, limit: number, noFollow = false) =>
    readRegularFileSync(file, limit, { noFollow }),
};

describe.each(Object.entries(readers))('readRegularFile (%s)', (_kind, read) => {
  it('reads a regular file whole, an empty one as empty', async () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'a.json'), '{"ü": 1}');
    fs.writeFileSync(path.join(dir, 'empty'), '');
    expect(await read(path.join(dir, 'a.json'), 100)).toBe('{"ü": 1}');
    expect(await read(path.join(dir, 'empty'), 100)).toBe('');
  });

  it('refuses a fifo at once, with no writer ever coming', async () => {
    const fifo = path.join(folder(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(read(fifo, 100)).rejects.toThrow('it is not a regular file');
  });

  it('refuses a device behind a link, a folder, and reads nothing of them', async () => {
    const dir = folder();
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero'));
    await expect(read(path.join(dir, 'zero'), 100)).rejects.toThrow('it is not a regular file');
    await expect(read(dir, 100)).rejects.toThrow(/not a regular file|EISDIR/);
  });

  it('refuses a file past the limit by its size, without reading it', async () => {
    const file = path.join(folder(), 'big');
    const handle = fs.openSync(file, 'w');
    fs.ftruncateSync(handle, 600 * 1024 * 1024);
    fs.closeSync(handle);
    const error = await read(file, 1024).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FileTooLargeError);
    expect((error as FileTooLargeError).size).toBe(600 * 1024 * 1024);
    expect((error as Error).message).toBe('it is 629145600 bytes, more than 1024');
    // Exactly at the limit is allowed.
    fs.writeFileSync(file, 'x'.repeat(1024));
    expect(await read(file, 1024)).toHaveLength(1024);
  });

  it('follows a link unless told not to, and passes errno errors through', async () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'real'), 'text');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'));
    expect(await read(path.join(dir, 'link'), 100)).toBe('text');
    await expect(read(path.join(dir, 'link'), 100, true)).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(read(path.join(dir, 'missing'), 100)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a file whose size says nothing (a /proc file) is not read past what its size allowed', async () => {
    // /proc files are regular files of size 0 that hold bytes: read as if they had grown while being read.
    await expect(read('/proc/self/status', 1024 * 1024)).rejects.toThrow('it changed while being read');
  });
});
