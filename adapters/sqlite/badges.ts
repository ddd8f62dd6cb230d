import type Database from 'better-sqlite3';
import type { BadgeHolder, Badges } from '../store.js';
import { sqliteAccountSessions } from './account-sessions.js';
import type { WriteBatch } from './write-batch.js';

/**
 * Badges in SQLite: issuing voids the user's earlier badge in the same transaction, and voiding a badge ends
 * its holder's sessions in it too (Badges contract). Both run in the write batch (write-batch.ts), since
 * ending sessions deletes protocol records: after the record writes asked for before it, each in the batch's
 * savepoint, atomic without a transaction of its own.
 */
export function sqliteBadges(db: Database.Database, now: () => number, batch: WriteBatch): Badges {
  const q = {
    deleteUser: db.prepare('DELETE FROM badges WHERE user_id = ?'),
    deleteOrg: db.prepare('DELETE FROM badges WHERE organisation_id = ?'),
    insert: db.prepare('INSERT INTO badges (code_hash, user_id, organisation_id, created_at) VALUES (?, ?, ?, ?)'),
    find: db.prepare('SELECT user_id AS userId, organisation_id AS organisationId FROM badges WHERE code_hash = ?'),
    holdersOfUser: db.prepare('SELECT user_id AS userId FROM badges WHERE user_id = ?'),
    // Each holder once (a user holds at most one badge; DISTINCT would sort: sqlite-statements.test.ts).
    holdersOfOrg: db.prepare('SELECT user_id AS userId FROM badges WHERE organisation_id = ?'),
  };
  const sessions = sqliteAccountSessions(db);
  const holders = (rows: unknown[]) => [...new Set((rows as { userId: string }[]).map((r) => r.userId))];
  const issue = (userId: string, organisationId: string, codeHash: string) => {
    if (q.deleteUser.run(userId).changes > 0) sessions.end(userId);
    q.insert.run(codeHash, userId, organisationId, now());
  };
  const revoke = (scope: { userId: string } | { organisationId: string }) => {
    const voided = 'userId' in scope ? holders(q.holdersOfUser.all(scope.userId)) : holders(q.holdersOfOrg.all(scope.organisationId));
    const count = 'userId' in scope ? q.deleteUser.run(scope.userId).changes : q.deleteOrg.run(scope.organisationId).changes;
    for (const userId of voided) sessions.end(userId);
    return count;
  };
  return {
    async issueBadge(userId, organisationId, codeHash) { await batch.write(() => issue(userId, organisationId, codeHash)); },
    async findBadge(codeHash) { return q.find.get(codeHash) as BadgeHolder | undefined; },
    async revokeBadges(scope) { return batch.write(() => revoke(scope)); },
    async badgeHolders(organisationId) { return new Set(holders(q.holdersOfOrg.all(organisationId))); },
  };
}
