import Database from 'better-sqlite3';
import { LanyardError } from '../../src/errors.js';
import { MIGRATIONS } from './migrations/index.js';

/** The schema version this release writes and reads (PRAGMA user_version). */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the database to SCHEMA_VERSION, each migration in its own IMMEDIATE transaction (the write lock
 * first, so two processes starting at once take turns and the second finds the work done). A database from
 * a newer release is refused rather than guessed at. Returns the versions applied.
 */
export function migrate(db: Database.Database, path: string): number[] {
  const applied: number[] = [];
  for (;;) {
    const step = db.transaction(() => {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > SCHEMA_VERSION) {
        throw new LanyardError('store_too_new', `${path}: schema version ${version} is newer than this Lanyard knows (${SCHEMA_VERSION}); upgrade Lanyard`);
      }
      if (version === SCHEMA_VERSION) return undefined;
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
      return version + 1;
    });
    const done = step.immediate();
    if (done === undefined) return applied;
    applied.push(done);
  }
}

export const schemaVersion = (db: Database.Database): number => db.pragma('user_version', { simple: true }) as number;

/** A SQLite store's schema version (PRAGMA user_version), read without opening the store (which would migrate first). */
export function readSchemaVersion(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return schemaVersion(db);
  } finally {
    db.close();
  }
}
