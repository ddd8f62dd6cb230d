import type Database from 'better-sqlite3';
import {
  CONFIG_REVISION_SETTING, type ConfigRevisions, parseStoredRevision, type RunningRevision, serializeStoredRevision,
} from '../store.js';

/** The configuration file's revisions in SQLite: the store's in `settings`, the instances' in `running_revisions`. */
export function sqliteConfigRevisions(db: Database.Database, now: () => number): ConfigRevisions & { sweep(): number } {
  const q = {
    get: db.prepare('SELECT value FROM settings WHERE name = ?'),
    put: db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
    report: db.prepare(`INSERT INTO running_revisions (instance, version, hash, expires_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (instance) DO UPDATE SET version = excluded.version, hash = excluded.hash, expires_at = excluded.expires_at`),
    list: db.prepare('SELECT instance, version, hash, expires_at AS expiresAt FROM running_revisions WHERE expires_at > ? ORDER BY instance'),
    forget: db.prepare('DELETE FROM running_revisions WHERE instance = ?'),
    sweep: db.prepare('DELETE FROM running_revisions WHERE expires_at <= ?'),
  };
  const stored = () => (q.get.get(CONFIG_REVISION_SETTING) as { value: string } | undefined)?.value;
  const swap = db.transaction((expected: string | undefined, next: string): boolean => {
    if (stored() !== expected) return false;
    q.put.run(CONFIG_REVISION_SETTING, next);
    return true;
  });
  return {
    async getConfigRevision() { return parseStoredRevision(stored()); },
    async swapConfigRevision(expected, next) {
      return swap.immediate(expected && serializeStoredRevision(expected), serializeStoredRevision(next));
    },
    async reportRunningRevision(instance, r, ttlMs) { q.report.run(instance, r.version, r.hash, now() + ttlMs); },
    async listRunningRevisions() { return q.list.all(now()) as RunningRevision[]; },
    async forgetRunningRevision(instance) { q.forget.run(instance); },
    sweep: () => q.sweep.run(now()).changes,
  };
}
