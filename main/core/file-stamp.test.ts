// The stamp caches of a file's reading trust (docs/hosts.md, "Fast start"): it changes with any write, and a file
// changed in the last moments has none, so two same-size writes inside one tick of the file clock are never mistaken.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileStamp, STAMP_SETTLE_MS } from './file-stamp';
import type { JsonFileKind } from './json-file-store';
import { JsonFileStore } from './json-file-store';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-file-stamp-'));
  dirs.push(dir);
  return path.join(dir, 'file.json');
}

describe('fileStamp', () => {
  it('has none while the file changed too recently, then one that any write or replacement changes', () => {
    const stat = { dev: 1, ino: 2, size: 3, mtimeMs: 1000, ctimeMs: 1000 };
    expect(fileStamp(stat, STAMP_SETTLE_MS, 1000 + STAMP_SETTLE_MS)).toBeNull();
    const stamp = fileStamp(stat, STAMP_SETTLE_MS, 1000 + STAMP_SETTLE_MS + 1);
    expect(stamp).not.toBeNull();
    for (const changed of [{ ino: 9 }, { size: 4 }, { mtimeMs: 999 }, { ctimeMs: 1001 }, { dev: 7 }]) {
      expect(fileStamp({ ...stat, ...changed }, STAMP_SETTLE_MS, 5000)).not.toBe(stamp);
    }
    // A time set in the future never settles: the file is read every time.
    expect(fileStamp({ ...stat, mtimeMs: 10_000 }, STAMP_SETTLE_MS, 5000)).toBeNull();
  });

  it('makes a JSON store read a just-written file again, and a settled one once', async () => {
    const file = tempFile();
    const kind: JsonFileKind<{ rule: string }> = {
      noun: 'a test file',
      maxBytes: 1024,
      empty: () => ({ rule: '' }),
      parse: (text) => ({ kind: 'ok', file: JSON.parse(text) as { rule: string } }),
      damagedError: (problem) => new Error(problem),
    };
    const store = new JsonFileStore(file, kind);
    const reads = vi.spyOn(fs.promises, 'open');
    fs.writeFileSync(file, JSON.stringify({ rule: 'allow' }));
    expect(await store.read()).toMatchObject({ kind: 'ok', file: { rule: 'allow' } });
    // Same size, same tick: whether or not this file system's clock tells the writes apart, a fresh file is read
    // again rather than served from the kept reading.
    fs.writeFileSync(file, JSON.stringify({ rule: 'deny!' }));
    expect(await store.read()).toMatchObject({ kind: 'ok', file: { rule: 'deny!' } });
    expect(await store.read()).toMatchObject({ kind: 'ok', file: { rule: 'deny!' } });
    expect(reads.mock.calls.filter(([name]) => name === file)).toHaveLength(3);
    // Once settled, the stamp holds and the file is not read again.
    await new Promise((resolve) => setTimeout(resolve, STAMP_SETTLE_MS + 50));
    await store.read();
    await store.read();
    expect(reads.mock.calls.filter(([name]) => name === file)).toHaveLength(4);
    reads.mockRestore();
  });
});
