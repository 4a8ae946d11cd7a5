import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SortedLineFile } from './sorted-line-file';

describe('SortedLineFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sorted-lines-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Large enough that the search takes several probes before its final scan.
  const keys = Array.from({ length: 5000 }, (_, i) => `key${String(i).padStart(5, '0')}`);
  const path = join(dir, 'index.test');
  writeFileSync(
    path,
    `  1 header line\n${keys.map((key, i) => `${key} value ${i} ${'x'.repeat(i % 40)}`).join('\n')}\n`,
  );
  const file = new SortedLineFile(path);

  it('finds every key, including the first and the last', () => {
    for (const i of [0, 1, 2, 1234, 2500, 4998, 4999]) {
      expect(file.find(keys[i] ?? '')).toMatch(new RegExp(`^${keys[i]} value ${i} `));
    }
  });

  it('returns undefined for absent keys and prefixes of keys', () => {
    expect(file.find('key')).toBeUndefined();
    expect(file.find('key000')).toBeUndefined();
    expect(file.find('aaa')).toBeUndefined();
    expect(file.find('zzz')).toBeUndefined();
    expect(file.find('')).toBeUndefined();
    expect(file.find(' ')).toBeUndefined();
    expect(file.find('key00001 value')).toBeUndefined();
  });

  it('reads a line at a byte offset', () => {
    expect(file.lineAt(0)).toBe('  1 header line');
    expect(file.lineAt('  1 header line\n'.length)).toMatch(/^key00000 value 0/);
  });

  it('reopens after close', () => {
    file.close();
    expect(file.find(keys[42] ?? '')).toMatch(/^key00042 /);
  });
});
