import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { chatStorePath, openChatStore } from './chat-store';
import { BUSY_TIMEOUT_MS, durabilitySettings, openDatabase } from './connection';
import type { TempDesktop } from './testing/temp-store';
import { tempDesktop } from './testing/temp-store';

let desktop: TempDesktop;
afterEach(() => desktop?.remove());

describe('openDatabase', () => {
  it('sets WAL, synchronous=FULL, foreign keys and a busy timeout, read back from SQLite', () => {
    desktop = tempDesktop();
    const store = openChatStore(desktop.file);
    expect(store.settings()).toEqual({
      journalMode: 'wal',
      synchronous: 2,
      foreignKeys: true,
      busyTimeoutMs: BUSY_TIMEOUT_MS,
    });
    store.close();
  });

  it('keeps WAL in the file, so another connection sees it too', () => {
    desktop = tempDesktop();
    openChatStore(desktop.file).close();
    const other = new Database(desktop.file);
    expect(other.pragma('journal_mode', { simple: true })).toBe('wal');
    other.close();
  });

  it('uses synchronous=NORMAL only when asked (the benchmark reference)', () => {
    desktop = tempDesktop();
    const db = openDatabase(desktop.file, { synchronous: 'normal', busyTimeoutMs: 100 });
    expect(durabilitySettings(db)).toMatchObject({ synchronous: 1, busyTimeoutMs: 100 });
    db.close();
  });

  it('creates the desktop folder and keeps the file private to the user', () => {
    desktop = tempDesktop();
    const store = openChatStore(desktop.file);
    store.chats.create({ title: 't', workspace: '/w' });
    expect(path.basename(desktop.file)).toBe('agenvoy.db');
    expect(chatStorePath('/x/desktop')).toBe('/x/desktop/agenvoy.db');
    expect(fs.statSync(desktop.file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(`${desktop.file}-wal`).mode & 0o777).toBe(0o600);
    store.close();
  });

  it('commits each write before returning: a second connection reads it at once', () => {
    desktop = tempDesktop();
    const store = openChatStore(desktop.file);
    const chat = store.chats.create({ title: 'seen elsewhere', workspace: '/w' });
    const reader = new Database(desktop.file, { readonly: true });
    expect(reader.prepare('SELECT title FROM chats WHERE id = ?').pluck().get(chat.id)).toBe(
      'seen elsewhere',
    );
    reader.close();
    store.close();
  });

  it('reports integrity_check and closes idempotently', () => {
    desktop = tempDesktop();
    const store = openChatStore(desktop.file);
    expect(store.integrityCheck()).toEqual({ ok: true, messages: ['ok'] });
    store.close();
    expect(store.open).toBe(false);
    expect(() => store.close()).not.toThrow();
  });
});
