// The safe writer's everyday behaviour: files land where asked inside the workspace, folders are made, nothing is
// replaced unless asked, no temp file is ever left, and symlinks that stay inside still work.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWritable, safeWriteFile } from './safe-write';

let workspace: string;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-safe-write-'));
});
afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

const target = (file: string, overwrite = false) => ({ workspace, path: file, parameter: 'path', overwrite });
const files = () =>
  (fs.readdirSync(workspace, { recursive: true }) as string[]).map((f) => f.split(path.sep).join('/')).sort();

describe('safeWriteFile', () => {
  it('writes text, bytes or a stream into new folders and reports where and how much', async () => {
    const text = await safeWriteFile(target('a/b/c.txt'), 'héllo');
    expect(text).toEqual({
      path: path.join(workspace, 'a', 'b', 'c.txt'),
      realPath: path.join(fs.realpathSync(workspace), 'a', 'b', 'c.txt'),
      bytes: 6,
    });
    await safeWriteFile(target('bin.dat'), new Uint8Array([1, 2, 3]));
    const streamed = await safeWriteFile(target('s.txt'), async (handle) => {
      for (const part of ['one ', 'two']) await handle.write(part);
    });
    expect(streamed.bytes).toBe(7);
    expect(fs.readFileSync(path.join(workspace, 'a/b/c.txt'), 'utf8')).toBe('héllo');
    expect([...fs.readFileSync(path.join(workspace, 'bin.dat'))]).toEqual([1, 2, 3]);
    expect(fs.readFileSync(path.join(workspace, 's.txt'), 'utf8')).toBe('one two');
    expect(files()).toEqual(['a', 'a/b', 'a/b/c.txt', 'bin.dat', 's.txt']);
  });

  it('replaces a file only when asked, and takes absolute paths inside the workspace', async () => {
    await safeWriteFile(target('r.md'), 'one');
    await expect(safeWriteFile(target('r.md'), 'two')).rejects.toMatchObject({
      code: 'exists',
      message: 'r.md already exists; pass overwrite=true to replace it',
    });
    await expect(checkWritable(target('r.md'))).rejects.toMatchObject({ code: 'exists' });
    await safeWriteFile(target(path.join(workspace, 'r.md'), true), 'two');
    expect(fs.readFileSync(path.join(workspace, 'r.md'), 'utf8')).toBe('two');
    expect(files()).toEqual(['r.md']);
  });

  it('follows symlinks that stay inside the workspace, and works in a workspace reached through a symlink', async () => {
    fs.mkdirSync(path.join(workspace, 'real'));
    fs.symlinkSync(path.join(workspace, 'real'), path.join(workspace, 'alias'));
    await safeWriteFile(target('alias/x.txt'), 'via alias');
    expect(fs.readFileSync(path.join(workspace, 'real', 'x.txt'), 'utf8')).toBe('via alias');
    const link = `${workspace}-link`;
    fs.symlinkSync(workspace, link);
    try {
      const written = await safeWriteFile({ ...target('y.txt'), workspace: link }, 'through link');
      expect(written.path).toBe(path.join(link, 'y.txt'));
      expect(fs.readFileSync(path.join(workspace, 'y.txt'), 'utf8')).toBe('through link');
    } finally {
      fs.rmSync(link);
    }
  });

  it('leaves no temp file when the content fails or the signal fires', async () => {
    await expect(
      safeWriteFile(target('broken.txt'), async (handle) => {
        await handle.write('half');
        throw new Error('stream broke');
      }),
    ).rejects.toThrow('stream broke');
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(safeWriteFile(target('never.txt'), 'x', controller.signal)).rejects.toThrow('cancelled');
    expect(files()).toEqual([]);
  });

  it('refuses empty paths, the workspace itself and a missing workspace, naming the parameter', async () => {
    await expect(safeWriteFile(target(''), 'x')).rejects.toThrow(/^`path` must be a path relative/);
    await expect(safeWriteFile(target('.'), 'x')).rejects.toThrow(/^`path` must stay inside the workspace/);
    await expect(safeWriteFile(target('a/..'), 'x')).rejects.toThrow(/^`path` must stay inside/);
    await expect(
      safeWriteFile({ ...target('x'), workspace: path.join(workspace, 'nope') }, 'x'),
    ).rejects.toMatchObject({ code: 'no_workspace' });
  });
});
