import Database from 'better-sqlite3';
import { openSqliteStore } from '../../adapters/sqlite.js';
import type { Store } from '../../adapters/store.js';
import { ManualClock } from '../../src/clock.js';

/**
 * A SQLite store (no checkpoint thread) opened while its statements are watched: the SQL of each statement
 * it prepares, and the connections it prepares them on. better-sqlite3's prepare is wrapped only while the
 * store opens, on the prototype, so the store's own connection is seen however it is set up.
 */
export function openWatchedSqliteStore(path: string): { store: Store; statements: string[]; connections: Set<Database.Database> } {
  const statements: string[] = [];
  const connections = new Set<Database.Database>();
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, source: string) {
    statements.push(source);
    connections.add(this);
    return prepare.call(this, source);
  } as typeof prepare;
  try {
    return { store: openSqliteStore(path, new ManualClock(), { checkpointThread: false }), statements, connections };
  } finally {
    Database.prototype.prepare = prepare;
  }
}
