// The tool vector cache over a real SQLite file: rows by (model, tool, definition hash), damaged rows dropped, old
// rows pruned, a file that is not a cache set aside.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openToolVectorCache, UNUSED_VECTOR_MS, vectorCachePath } from './tool-vector-cache';

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
});
