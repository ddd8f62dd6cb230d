import type Database from 'better-sqlite3';
import type { BadgeHolder, Badges } from '../store.js';

/** Badges in SQLite: issuing voids the user's earlier badge in the same transaction. */
export function sqliteBadges(db: Database.Database, now: () => number): Badges {
  const q = {
    deleteUser: db.prepare('DELETE FROM badges WHERE user_id = ?'),
    deleteOrg: db.prepare('DELETE FROM badges WHERE organisation_id = ?'),
    insert: db.prepare('INSERT INTO badges (code_hash, user_id, organisation_id, created_at) VALUES (?, ?, ?, ?)'),
    find: db.prepare('SELECT user_id AS userId, organisation_id AS organisationId FROM badges WHERE code_hash = ?'),
  };
  const issue = db.transaction((userId: string, organisationId: string, codeHash: string) => {
    q.deleteUser.run(userId);
    q.insert.run(codeHash, userId, organisationId, now());
  });
  return {
    async issueBadge(userId, organisationId, codeHash) { issue.immediate(userId, organisationId, codeHash); },
    async findBadge(codeHash) { return q.find.get(codeHash) as BadgeHolder | undefined; },
    async revokeBadges(scope) {
      return 'userId' in scope ? q.deleteUser.run(scope.userId).changes : q.deleteOrg.run(scope.organisationId).changes;
    },
  };
}
