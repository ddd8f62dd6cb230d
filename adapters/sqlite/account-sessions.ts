import type Database from 'better-sqlite3';
import { sessionsEndNow } from '../store.js';

/**
 * Ending a user's sessions in SQLite (Directory.endSessions), shared by the directory and the badges: the
 * user's sessionsValidAfter moves forward (never back) and every protocol record of the account goes.
 * Synchronous, so a caller runs it inside the transaction that changed the credential.
 */
export function sqliteAccountSessions(db: Database.Database) {
  const q = {
    validAfter: db.prepare(`UPDATE users SET sessions_valid_after = max(coalesce(sessions_valid_after, 0), ?)
      WHERE id = ?`),
    revoke: db.prepare('DELETE FROM oidc_records WHERE account_id = ?'),
  };
  return {
    /** Removes every protocol record of the account; returns how many. */
    revokeRecords: (accountId: string): number => q.revoke.run(accountId).changes,
    /** false when there is no such user. */
    end(userId: string): boolean {
      const found = q.validAfter.run(sessionsEndNow(), userId).changes === 1;
      q.revoke.run(userId);
      return found;
    },
  };
}
