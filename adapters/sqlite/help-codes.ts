import type Database from 'better-sqlite3';
import { LanyardError } from '../../src/errors.js';
import type { HelpCode, HelpCodeOutcome, HelpCodes } from '../store.js';
import { byKeys } from '../store/collation.js';
import type { WriteBatch } from './write-batch.js';

export interface HelpCodeRow {
  user_id: string; organisation_id: string; code_hash: string; created_at: string; expires_at: string; expires_ms: number;
  issued_by: string; failures: number;
}

export const toHelpCode = (r: HelpCodeRow): HelpCode => ({
  userId: r.user_id, organisationId: r.organisation_id, codeHash: r.code_hash, createdAt: r.created_at, expiresAt: r.expires_at,
  issuedBy: r.issued_by, failures: r.failures,
});

export const helpCodeRow = (c: HelpCode): HelpCodeRow => ({
  user_id: c.userId, organisation_id: c.organisationId, code_hash: c.codeHash, created_at: c.createdAt, expires_at: c.expiresAt,
  expires_ms: Date.parse(c.expiresAt), issued_by: c.issuedBy, failures: c.failures,
});

/** A pupil holds at most one code: a new one replaces it. */
export const HELP_CODE_UPSERT_SQL = `INSERT INTO help_codes (user_id, organisation_id, code_hash, created_at, expires_at, expires_ms, issued_by, failures)
  VALUES (@user_id, @organisation_id, @code_hash, @created_at, @expires_at, @expires_ms, @issued_by, @failures)
  ON CONFLICT (user_id) DO UPDATE SET organisation_id = excluded.organisation_id, code_hash = excluded.code_hash,
  created_at = excluded.created_at, expires_at = excluded.expires_at, expires_ms = excluded.expires_ms,
  issued_by = excluded.issued_by, failures = excluded.failures`;

/** A school's live codes by expiry (sorted here: a statement with a parameter must not sort). */
const byExpiry = byKeys<HelpCodeRow>((r) => r.expires_ms, (r) => r.user_id);

/**
 * Help codes in SQLite (adapters/store/help-codes.ts): one row per pupil. A try reads and writes in the write
 * batch's transaction (write-batch.ts), which holds the write lock from its start: two tries of one code, in
 * this process or another, never both find it. Expired rows are never read, and the sweep deletes them.
 */
export function sqliteHelpCodes(db: Database.Database, now: () => number, batch: WriteBatch): HelpCodes & { sweep(): number } {
  const q = {
    user: db.prepare('SELECT 1 FROM users WHERE id = ?'),
    organisation: db.prepare('SELECT 1 FROM organisations WHERE id = ?'),
    put: db.prepare(HELP_CODE_UPSERT_SQL),
    find: db.prepare('SELECT * FROM help_codes WHERE user_id = ? AND expires_ms > ?'),
    ofOrganisation: db.prepare('SELECT * FROM help_codes WHERE organisation_id = ? AND expires_ms > ?'),
    fail: db.prepare('UPDATE help_codes SET failures = failures + 1 WHERE user_id = ?'),
    delete: db.prepare('DELETE FROM help_codes WHERE user_id = ?'),
    sweep: db.prepare('DELETE FROM help_codes WHERE expires_ms <= ?'),
  };
  // Checked and written in one transaction: a pupil deleted meanwhile cannot keep a code.
  const put = db.transaction((row: HelpCodeRow) => {
    if (!q.user.get(row.user_id)) throw new LanyardError('not_found', `user ${row.user_id} does not exist`, 404, true);
    if (!q.organisation.get(row.organisation_id)) throw new LanyardError('not_found', `organisation ${row.organisation_id} does not exist`, 404, true);
    q.put.run(row);
  });
  const tryCode = (userId: string, codeHash: string, at: number, maxFailures: number): HelpCodeOutcome => {
    const row = q.find.get(userId, at) as HelpCodeRow | undefined;
    if (!row) return 'none';
    if (row.code_hash === codeHash) {
      q.delete.run(userId);
      return 'used';
    }
    if (row.failures + 1 >= maxFailures) q.delete.run(userId);
    else q.fail.run(userId);
    return 'wrong';
  };
  return {
    async putHelpCode(code) { put.immediate(helpCodeRow(code)); },
    async findHelpCode(userId, at) {
      const row = q.find.get(userId, Date.parse(at)) as HelpCodeRow | undefined;
      return row && toHelpCode(row);
    },
    async tryHelpCode(userId, codeHash, at, maxFailures) {
      const t = Date.parse(at);
      return batch.write(() => tryCode(userId, codeHash, t, maxFailures));
    },
    async deleteHelpCode(userId) { return batch.write(() => q.delete.run(userId).changes === 1); },
    async listHelpCodes(organisationId, at) {
      return (q.ofOrganisation.all(organisationId, Date.parse(at)) as HelpCodeRow[]).sort(byExpiry).map(toHelpCode);
    },
    sweep: () => q.sweep.run(now()).changes,
  };
}
