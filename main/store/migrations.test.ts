import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openChatStore } from './chat-store';
import { ChatTable } from './chats';
import { openDatabase } from './connection';
import { MessageTable } from './messages';
import type { Migration } from './migrations';
import { MIGRATIONS, SCHEMA_VERSION, migrate, schemaVersion } from './migrations';
import { hasSearchIndex } from './schema-search';
import { searchMessages } from './search';
import type { TempDesktop } from './testing/temp-store';
import { tempDesktop } from './testing/temp-store';

let desktop: TempDesktop;
afterEach(() => desktop?.remove());

/** Writes a v1 database as a build from before the search index would have left it. */
function writeV1(file: string): void {
  const db = openDatabase(file);
  expect(migrate(db, MIGRATIONS.slice(0, 1))).toEqual([1]);
  const chat = new ChatTable(db).create({ id: 'old', title: 'from v1', workspace: '/w' });
  new MessageTable(db).append(chat.id, {
    role: 'user',
    content: [{ type: 'text', text: 'the quarterly invoice' }],
  });
  db.close();
}

describe('migrations', () => {
  it('are numbered 1, 2, … in order', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('bring a new file to the latest version, and do nothing on the next open', () => {
    desktop = tempDesktop();
    const db = openDatabase(desktop.file);
    expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(migrate(db)).toEqual([]);
    db.close();
  });

  it('migrate a v1 database, keeping its data and indexing it for full-text search', () => {
    desktop = tempDesktop();
    writeV1(desktop.file);
    const v1 = openDatabase(desktop.file);
    expect(schemaVersion(v1)).toBe(1);
    expect(hasSearchIndex(v1)).toBe(false);
    // Without the index, search falls back to LIKE.
    expect(searchMessages(v1, 'quarterly').map((h) => h.snippet)).toEqual(['the «quarterly» invoice']);
    v1.close();

    const store = openChatStore(desktop.file);
    expect(store.chats.get('old')?.title).toBe('from v1');
    expect(store.messages.list('old').map((m) => m.message)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'the quarterly invoice' }] },
    ]);
    expect(store.search('quarter').map((h) => [h.chatId, h.snippet])).toEqual([
      ['old', 'the «quarterly» invoice'],
    ]);
    store.close();
    const check = new Database(desktop.file);
    expect(schemaVersion(check)).toBe(SCHEMA_VERSION);
    expect(hasSearchIndex(check)).toBe(true);
    check.close();
  });

  it('roll a failing step back whole, version included', () => {
    desktop = tempDesktop();
    const db = openDatabase(desktop.file);
    const broken: Migration = {
      version: SCHEMA_VERSION + 1,
      name: 'broken',
      up: (d) => {
        d.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('step failed');
      },
    };
    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow('step failed');
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get()).toBeUndefined();
    db.close();
  });

  it('refuse a database from a newer build', () => {
    desktop = tempDesktop();
    const db = openDatabase(desktop.file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openChatStore(desktop.file)).toThrow(/newer than this build/);
  });
});
