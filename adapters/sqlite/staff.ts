import type Database from 'better-sqlite3';
import { LanyardError } from '../../src/errors.js';
import type { Staff } from '../store.js';
import { byKeys } from '../store/collation.js';
import {
  STAFF_SQL, type StaffFactorRow, staffFactorRow, type StaffGrantRow, staffGrantRow, type StaffTokenRow, staffTokenRow, toStaffFactor,
  toStaffGrant, toStaffToken,
} from './staff-rows.js';

/** Orders of the lists (sorted here: a statement with a parameter must not sort). */
const byUserThenRole = byKeys<StaffGrantRow>((g) => g.user_id, (g) => g.role);
const byOrganisationThenRole = byKeys<StaffGrantRow>((g) => g.organisation_id, (g) => g.role);
const oldestFirst = byKeys<StaffTokenRow>((t) => t.created_at, (t) => t.id);

/**
 * The school console's staff in SQLite (adapters/store/staff.ts): grants, second factors and API tokens. A
 * write that names a person or a school checks, in its transaction, that they exist. Spending a recovery code
 * reads and writes in one IMMEDIATE transaction (the write lock first), and a TOTP step is recorded by one
 * conditional UPDATE: two uses at once, in this process or another, never both succeed. A factor put keeps the
 * greater of its step and the stored one, so a put of a factor read before a sign-in cannot undo that sign-in's step.
 */
export function sqliteStaff(db: Database.Database): Staff {
  const q = {
    user: db.prepare('SELECT 1 FROM users WHERE id = ?'),
    organisation: db.prepare('SELECT 1 FROM organisations WHERE id = ?'),
    putGrant: db.prepare(STAFF_SQL.putGrant),
    deleteGrant: db.prepare('DELETE FROM staff_grants WHERE organisation_id = ? AND user_id = ? AND role = ?'),
    grantsOfOrganisation: db.prepare('SELECT * FROM staff_grants WHERE organisation_id = ?'),
    grantsOfUser: db.prepare('SELECT * FROM staff_grants WHERE user_id = ?'),
    factor: db.prepare('SELECT * FROM staff_factors WHERE user_id = ?'),
    putFactor: db.prepare(STAFF_SQL.putFactor),
    deleteFactor: db.prepare('DELETE FROM staff_factors WHERE user_id = ?'),
    setRecoveryCodes: db.prepare('UPDATE staff_factors SET recovery_code_hashes = ? WHERE user_id = ?'),
    advanceStep: db.prepare('UPDATE staff_factors SET last_step = ? WHERE user_id = ? AND (last_step IS NULL OR last_step < ?)'),
    putToken: db.prepare(STAFF_SQL.putToken),
    token: db.prepare('SELECT * FROM staff_api_tokens WHERE id = ?'),
    tokensOfUser: db.prepare('SELECT * FROM staff_api_tokens WHERE user_id = ?'),
    deleteToken: db.prepare('DELETE FROM staff_api_tokens WHERE user_id = ? AND id = ?'),
    touchToken: db.prepare('UPDATE staff_api_tokens SET last_used_at = ? WHERE id = ?'),
  };
  const mustExist = (userId: string, organisationId?: string) => {
    if (!q.user.get(userId)) throw new LanyardError('not_found', `user ${userId} does not exist`, 404, true);
    if (organisationId !== undefined && !q.organisation.get(organisationId)) {
      throw new LanyardError('not_found', `organisation ${organisationId} does not exist`, 404, true);
    }
  };
  // Each checked and written in one transaction: a person deleted meanwhile cannot keep a grant, factor or token.
  const putGrant = db.transaction((row: StaffGrantRow) => { mustExist(row.user_id, row.organisation_id); q.putGrant.run(row); });
  const putFactor = db.transaction((row: StaffFactorRow) => { mustExist(row.user_id); q.putFactor.run(row); });
  const putToken = db.transaction((row: StaffTokenRow) => { mustExist(row.user_id); q.putToken.run(row); });
  const spend = db.transaction((userId: string, codeHash: string): boolean => {
    const row = q.factor.get(userId) as StaffFactorRow | undefined;
    if (!row) return false;
    const hashes = JSON.parse(row.recovery_code_hashes) as string[];
    const at = hashes.indexOf(codeHash);
    if (at < 0) return false;
    hashes.splice(at, 1);
    q.setRecoveryCodes.run(JSON.stringify(hashes), userId);
    return true;
  });

  return {
    async putStaffGrant(grant) { putGrant.immediate(staffGrantRow(grant)); },
    async deleteStaffGrant(organisationId, userId, role) { return q.deleteGrant.run(organisationId, userId, role).changes === 1; },
    async listStaffGrants(organisationId) {
      return (q.grantsOfOrganisation.all(organisationId) as StaffGrantRow[]).sort(byUserThenRole).map(toStaffGrant);
    },
    async userStaffGrants(userId) { return (q.grantsOfUser.all(userId) as StaffGrantRow[]).sort(byOrganisationThenRole).map(toStaffGrant); },

    async getStaffSecondFactor(userId) {
      const row = q.factor.get(userId) as StaffFactorRow | undefined;
      return row && toStaffFactor(row);
    },
    async putStaffSecondFactor(factor) { putFactor.immediate(staffFactorRow(factor)); },
    async deleteStaffSecondFactor(userId) { return q.deleteFactor.run(userId).changes === 1; },
    async spendStaffRecoveryCode(userId, codeHash) { return spend.immediate(userId, codeHash); },
    async advanceStaffTotpStep(userId, step) { return q.advanceStep.run(step, userId, step).changes === 1; },

    async putStaffApiToken(token) { putToken.immediate(staffTokenRow(token)); },
    async findStaffApiToken(id) {
      const row = q.token.get(id) as StaffTokenRow | undefined;
      return row && toStaffToken(row);
    },
    async listStaffApiTokens(userId) { return (q.tokensOfUser.all(userId) as StaffTokenRow[]).sort(oldestFirst).map(toStaffToken); },
    async deleteStaffApiToken(userId, id) { return q.deleteToken.run(userId, id).changes === 1; },
    async touchStaffApiToken(id, at) { q.touchToken.run(at, id); },
  };
}
