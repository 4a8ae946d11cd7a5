// Versioned schema migrations: PRAGMA user_version holds the version, each step runs in its own transaction.
import type Database from 'better-sqlite3';
import { coreSchema } from './schema-core';
import { searchSchema } from './schema-search';
import { chatModelSchema } from './schema-chat-model';
import { runMarkSchema } from './schema-run-mark';
import { usageSchema } from './schema-usage';

/** One step of the schema; `version` is what user_version becomes once `up` has run. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

/** Every migration in order; append new steps, never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'chats, messages, tool calls, approvals, tasks, process groups, todos, schemas',
    up: coreSchema,
  },
  { version: 2, name: 'full-text search over messages', up: searchSchema },
  { version: 3, name: "round usage, and each chat's reasoning level", up: usageSchema },
  { version: 4, name: "each chat's own model", up: chatModelSchema },
  { version: 5, name: "each process group's run mark", up: runMarkSchema },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/** The database's schema version (PRAGMA user_version; 0 for a new file). */
export function schemaVersion(db: Database.Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/** Brings the database up to the last of `migrations`; returns the versions applied. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const current = schemaVersion(db);
  const latest = migrations.at(-1)?.version ?? 0;
  // An older build must not write into a schema it does not know.
  if (current > latest)
    throw new Error(`history database has schema v${current}, newer than this build's v${latest}`);
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    // user_version lives in the file header, so it commits or rolls back with the step.
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}
