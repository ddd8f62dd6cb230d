import type Database from 'better-sqlite3';
import type { Badges, Counter, Counters } from '../store.js';

/** Badges and login counters in SQLite: every write that must be atomic is one statement or one transaction. */
export function loginRecords(db: Database.Database, now: () => number): Badges & Counters & { sweepCounters(): number } {
  const q = {
    badgeDeleteUser: db.prepare('DELETE FROM badges WHERE user_id = ?'),
    badgeDeleteOrg: db.prepare('DELETE FROM badges WHERE organisation_id = ?'),
    badgeInsert: db.prepare('INSERT INTO badges (code_hash, user_id, organisation_id, created_at) VALUES (?, ?, ?, ?)'),
    badgeFind: db.prepare('SELECT user_id AS userId, organisation_id AS organisationId FROM badges WHERE code_hash = ?'),
    // One statement: a new window when the old one is over, else one more hit in it.
    counterHit: db.prepare(`INSERT INTO counters (key, count, last_at, expires_at) VALUES (@key, 1, @now, @expires)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN expires_at <= @now THEN 1 ELSE count + 1 END,
        expires_at = CASE WHEN expires_at <= @now THEN @expires ELSE expires_at END,
        last_at = @now
      RETURNING count, last_at AS lastAt, expires_at AS expiresAt`),
    counterRelease: db.prepare(`UPDATE counters SET count = max(count - 1, 0), last_at = coalesce(?, last_at)
      WHERE key = ? AND expires_at > ?`),
    counterPeek: db.prepare('SELECT count, last_at AS lastAt, expires_at AS expiresAt FROM counters WHERE key = ? AND expires_at > ?'),
    counterClear: db.prepare('DELETE FROM counters WHERE key = ?'),
    counterSweep: db.prepare('DELETE FROM counters WHERE expires_at <= ?'),
  };
  // Read the previous hit and count this one in one transaction: concurrent hits see distinct counts.
  const hit = db.transaction((key: string, t: number, expires: number): Counter => {
    const before = q.counterPeek.get(key, t) as Counter | undefined;
    const after = q.counterHit.get({ key, now: t, expires }) as Counter;
    return { ...after, previousAt: before?.lastAt };
  });
  const issue = db.transaction((userId: string, organisationId: string, codeHash: string) => {
    q.badgeDeleteUser.run(userId);
    q.badgeInsert.run(codeHash, userId, organisationId, now());
  });

  return {
    async issueBadge(userId, organisationId, codeHash) { issue(userId, organisationId, codeHash); },
    async findBadge(codeHash) {
      return q.badgeFind.get(codeHash) as { userId: string; organisationId: string } | undefined;
    },
    async revokeBadges(scope) {
      return 'userId' in scope ? q.badgeDeleteUser.run(scope.userId).changes : q.badgeDeleteOrg.run(scope.organisationId).changes;
    },
    async hitCounter(key, windowSeconds) {
      const t = now();
      return hit(key, t, t + windowSeconds * 1000);
    },
    async releaseCounter(key, lastAt) { q.counterRelease.run(lastAt ?? null, key, now()); },
    async peekCounter(key) { return q.counterPeek.get(key, now()) as Counter | undefined; },
    async clearCounter(key) { q.counterClear.run(key); },
    sweepCounters: () => q.counterSweep.run(now()).changes,
  };
}
