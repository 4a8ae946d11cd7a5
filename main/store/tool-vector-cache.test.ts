// The tool vector cache over a real SQLite file: rows by (model, tool, definition hash), damaged rows dropped, old
// rows pruned, a file that is not a cache set aside.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CACHE_BUSY_TIMEOUT_MS,
  openToolVectorCache,
  PRUNE_EVERY_SAVES,
  UNUSED_VECTOR_MS,
  vectorCachePath,
} from './tool-vector-cache';
import { corruptPages } from './testing/corrupt-pages';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function file(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-vectors-'));
  temps.push(dir);
  return vectorCachePath(path.join(dir, 'desktop'));
}
const vector = (...values: number[]) => Float32Array.from(values);
const rows = (count: number, dimensions: number, prefix = 'tool') =>
  Array.from({ length: count }, (_, at) => ({
    name: `${prefix}_${String(at).padStart(5, '0')}`,
    hash: 'h',
    vector: Float32Array.from({ length: dimensions }, (_, i) => ((at + i) % 7) + 1),
  }));

describe('the tool vector cache', () => {
  it('keeps a vector per model, tool and definition, across opens', () => {
    const at = file();
    const cache = openToolVectorCache(at);
    cache.save('m1', [
      { name: 'a', hash: 'h1', vector: vector(0.6, 0.8) },
      { name: 'b', hash: 'h1', vector: vector(1, 0) },
    ]);
    cache.save('m2', [{ name: 'a', hash: 'h1', vector: vector(0, 1) }]);
    cache.close();
    const again = openToolVectorCache(at);
    const found = again.load('m1', [
      { name: 'a', hash: 'h1' },
      { name: 'a', hash: 'h2' },
      { name: 'c', hash: 'h1' },
    ]);
    expect(found).toEqual([{ name: 'a', hash: 'h1', vector: vector(0.6, 0.8) }]);
    expect(again.load('m2', [{ name: 'a', hash: 'h1' }])[0]?.vector).toEqual(vector(0, 1));
    again.forget('m1');
    expect(again.load('m1', [{ name: 'b', hash: 'h1' }])).toEqual([]);
    expect(again.size()).toBe(1);
    again.close();
    expect(fs.statSync(at).mode & 0o777).toBe(0o600);
  });

  it('drops damaged rows instead of returning them, and prunes rows unused for 30 days', () => {
    const at = file();
    let now = 1_000_000_000_000;
    const cache = openToolVectorCache(at, () => now);
    cache.save('m', [
      { name: 'ok', hash: 'h', vector: vector(1, 0) },
      { name: 'nan', hash: 'h', vector: vector(Number.NaN, 1) },
      { name: 'zero', hash: 'h', vector: vector(0, 0) },
    ]);
    cache.close();
    const db = new Database(at);
    db.prepare("UPDATE tool_embeddings SET vector = x'00' WHERE tool = 'ok'").run();
    db.close();
    const again = openToolVectorCache(at, () => now);
    const keys = ['ok', 'nan', 'zero'].map((name) => ({ name, hash: 'h' }));
    expect(again.load('m', keys)).toEqual([]);
    expect(again.size()).toBe(0);
    again.save('m', [{ name: 'old', hash: 'h', vector: vector(1, 0) }]);
    now += UNUSED_VECTOR_MS + 1;
    again.save('m', [{ name: 'new', hash: 'h', vector: vector(1, 0) }]);
    again.prune();
    expect(again.load('m', [{ name: 'old', hash: 'h' }])).toEqual([]);
    expect(again.load('m', [{ name: 'new', hash: 'h' }])).toHaveLength(1);
    again.close();
  });

  it('a file that is not a cache, or of a newer schema, is set aside and a new one started', () => {
    const at = file();
    fs.mkdirSync(path.dirname(at), { recursive: true });
    fs.writeFileSync(at, 'not a database at all, just text '.repeat(200));
    const cache = openToolVectorCache(at);
    cache.save('m', [{ name: 'a', hash: 'h', vector: vector(1) }]);
    expect(cache.size()).toBe(1);
    cache.close();
    expect(fs.readFileSync(`${at}.broken`, 'utf8')).toMatch(/^not a database/);
    const db = new Database(at);
    db.pragma('user_version = 99');
    db.close();
    const newer = openToolVectorCache(at);
    expect(newer.size()).toBe(0);
    newer.close();
  });

  it('a file with damaged pages, which opens fine and fails when read, is set aside at the first read and a new one started', () => {
    const at = file();
    const cache = openToolVectorCache(at);
    const saved = rows(400, 64);
    cache.save('m', saved);
    cache.close();
    corruptPages(at);
    const damaged = openToolVectorCache(at);
    // Best effort: nothing found rather than an error, and the damaged file is out of the way.
    expect(damaged.load('m', saved)).toEqual([]);
    expect(fs.existsSync(`${at}.broken`)).toBe(true);
    damaged.save('m', saved.slice(0, 3));
    expect(damaged.load('m', saved).map((row) => row.name)).toEqual(saved.slice(0, 3).map((row) => row.name));
    damaged.close();
    // A save or a forget that meets the damage first recovers the same way.
    for (const first of ['save', 'forget'] as const) {
      const again = openToolVectorCache(at);
      again.save('m', saved);
      again.close();
      corruptPages(at);
      const next = openToolVectorCache(at);
      if (first === 'save') next.save('m', saved.slice(0, 1));
      else next.forget('m');
      next.save('m', saved.slice(1, 2));
      expect(next.load('m', saved).length).toBeGreaterThan(0);
      next.close();
    }
  });

  it('a cache locked by another process is waited for only briefly and never set aside', () => {
    const at = file();
    const cache = openToolVectorCache(at);
    cache.save('m', rows(3, 4));
    cache.close();
    const other = new Database(at);
    other.pragma('locking_mode = EXCLUSIVE');
    other.exec('BEGIN EXCLUSIVE; DELETE FROM tool_embeddings WHERE 0; COMMIT;');
    try {
      const started = Date.now();
      expect(() => openToolVectorCache(at)).toThrow(/locked|busy/i);
      expect(Date.now() - started).toBeLessThan(CACHE_BUSY_TIMEOUT_MS + 1500);
      expect(fs.existsSync(`${at}.broken`)).toBe(false);
      expect(fs.existsSync(`${at}-wal.broken`)).toBe(false);
    } finally {
      other.close();
    }
    // Once the other lets go, the same file opens with its rows.
    const after = openToolVectorCache(at);
    expect(after.size()).toBe(3);
    // A write lock held elsewhere fails a save in about the short timeout, not five seconds.
    const writer = new Database(at);
    writer.exec('BEGIN IMMEDIATE');
    try {
      const started = Date.now();
      expect(() => after.save('m', rows(1, 4, 'late'))).toThrow(/locked|busy/i);
      expect(Date.now() - started).toBeLessThan(CACHE_BUSY_TIMEOUT_MS + 1500);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
    after.close();
  });

  it('prunes again every few saves, not only at the first, and bounds the numbers it holds', () => {
    const at = file();
    let now = 1_000_000_000_000;
    const cache = openToolVectorCache(at, () => now, { maxNumbers: 1000 });
    cache.save('m', rows(5, 4, 'old'));
    now += UNUSED_VECTOR_MS + 1;
    for (let i = 0; i < PRUNE_EVERY_SAVES; i++) cache.save('m', rows(1, 4, `new${i}`));
    expect(cache.load('m', rows(5, 4, 'old'))).toEqual([]);
    // 1,000 numbers: 40 rows of 25 at most, the least recently used go first.
    for (let i = 0; i < PRUNE_EVERY_SAVES; i++) {
      now += 1;
      cache.save('big', rows(10, 25, `b${i}`));
    }
    // Between prunes it may hold up to PRUNE_EVERY_SAVES saves more; a prune brings it back under.
    cache.prune();
    expect(cache.numbers()).toBeLessThanOrEqual(1000);
    expect(cache.load('big', rows(10, 25, `b${PRUNE_EVERY_SAVES - 1}`))).toHaveLength(10);
    expect(cache.load('big', rows(10, 25, 'b0'))).toEqual([]);
    cache.close();
  });
});
