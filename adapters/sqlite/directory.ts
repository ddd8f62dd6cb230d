import type Database from 'better-sqlite3';
import { newId } from '../store/ids.js';
import { LanyardError } from '../../src/errors.js';
import type { CredentialKind, Directory, User } from '../store.js';
import { sqliteAccountSessions } from './account-sessions.js';
import type { WriteBatch } from './write-batch.js';
import { byKeys } from '../store/collation.js';
import { type OrganisationRow, toOrganisation, toUser, type UserRow } from './rows.js';

/** How many fresh random ids a new user may try (50 bits each: a second try is already a curiosity). */
const ID_TRIES = 5;

/** A school's credentials by user, then kind (sorted here: a statement with a parameter must not sort). */
const credentialOrder = byKeys<{ userId: string; kind: CredentialKind }>((c) => c.userId, (c) => c.kind);

/** Organisations, users and credentials in SQLite. */
export function sqliteDirectory(db: Database.Database, batch: WriteBatch): Directory {
  const q = {
    orgBySlug: db.prepare('SELECT * FROM organisations WHERE slug = ?'),
    orgById: db.prepare('SELECT * FROM organisations WHERE id = ?'),
    // A source id not given keeps the stored one (the roster's; the JSON import knows none).
    orgUpsert: db.prepare(`INSERT INTO organisations (id, slug, name, login, source_id) VALUES (@id, @slug, @name, @login, @sourceId)
      ON CONFLICT (slug) DO UPDATE SET name = excluded.name, login = coalesce(excluded.login, login),
      source_id = coalesce(excluded.source_id, source_id)`),
    // Alphabetical as people read it: BINARY collation would sort 'Zeta' before 'alpha'. The one statement
    // left to sort with a parameter (test/unit/adapters/sqlite-statements.test.ts): a search reads every
    // school anyway, and SQLite keeps only the first `limit` as it goes, where sorting every match here
    // would not; its prepare again at each run is small beside that scan.
    orgSearch: db.prepare(`SELECT * FROM organisations
      WHERE instr(lower(name), lower(?)) > 0 OR instr(lower(slug), lower(?)) > 0
      ORDER BY name COLLATE NOCASE, slug LIMIT ?`),
    userById: db.prepare('SELECT * FROM users WHERE id = ?'),
    userByName: db.prepare('SELECT * FROM users WHERE organisation_id = ? AND username = ?'),
    usersOfOrg: db.prepare('SELECT * FROM users WHERE organisation_id = ? ORDER BY username'),
    // Suspension, sessions_valid_after, the source id and the roster's hold are not the import's to change.
    userUpsert: db.prepare(`INSERT INTO users (id, organisation_id, username, given_name, family_name, type, email,
      google_email, microsoft_email, roster_id) VALUES (@id, @organisationId, @username, @givenName, @familyName,
      @type, @email, @googleEmail, @microsoftEmail, @rosterId)
      ON CONFLICT (organisation_id, username) DO UPDATE SET given_name = excluded.given_name,
      family_name = excluded.family_name, type = excluded.type, email = excluded.email,
      google_email = excluded.google_email, microsoft_email = excluded.microsoft_email, roster_id = excluded.roster_id`),
    idTaken: db.prepare('SELECT 1 FROM users WHERE id = ? UNION ALL SELECT 1 FROM retired_user_ids WHERE id = ?'),
    retired: db.prepare('SELECT 1 FROM retired_user_ids WHERE id = ?'),
    credSet: db.prepare(`INSERT INTO credentials (user_id, kind, hash) VALUES (?, ?, ?)
      ON CONFLICT (user_id, kind) DO UPDATE SET hash = excluded.hash`),
    credGet: db.prepare('SELECT hash FROM credentials WHERE user_id = ? AND kind = ?'),
    credKinds: db.prepare(`SELECT c.user_id AS userId, c.kind FROM credentials c JOIN users u ON u.id = c.user_id
      WHERE u.organisation_id = ?`),
    suspend: db.prepare('UPDATE users SET suspended_at = ? WHERE id = ?'),
    deleteCreds: db.prepare('DELETE FROM credentials WHERE user_id = ?'),
    deleteBadges: db.prepare('DELETE FROM badges WHERE user_id = ?'),
    deleteEnrolments: db.prepare('DELETE FROM enrolments WHERE user_id = ?'),
    deleteMemberships: db.prepare('DELETE FROM memberships WHERE user_id = ?'),
    deleteSignIn: db.prepare('DELETE FROM user_sign_ins WHERE user_id = ?'),
    deleteHelpCode: db.prepare('DELETE FROM help_codes WHERE user_id = ?'),
    deleteStaffGrants: db.prepare('DELETE FROM staff_grants WHERE user_id = ?'),
    deleteStaffFactor: db.prepare('DELETE FROM staff_factors WHERE user_id = ?'),
    deleteStaffTokens: db.prepare('DELETE FROM staff_api_tokens WHERE user_id = ?'),
    deleteUser: db.prepare('DELETE FROM users WHERE id = ?'),
    retire: db.prepare('INSERT OR IGNORE INTO retired_user_ids (id, retired_at) VALUES (?, ?)'),
  };
  const sessions = sqliteAccountSessions(db);
  const findOrg = (slugOrId: string) => {
    // A slug wins over an id that happens to look the same.
    const row = (q.orgBySlug.get(slugOrId) ?? q.orgById.get(slugOrId)) as OrganisationRow | undefined;
    return row && toOrganisation(row);
  };

  // The existing user keeps its id; a new one gets the given id unless retired, else a fresh one never used.
  const upsertUser = db.transaction((user: Omit<User, 'id'> & { id?: string }) => {
    let id = (q.userByName.get(user.organisationId, user.username) as UserRow | undefined)?.id;
    if (!id && user.id !== undefined) {
      if (q.retired.get(user.id)) throw new LanyardError('conflict', `user id ${user.id} belonged to a deleted user and is never reused`, 409, true);
      id = user.id;
    }
    for (let i = 0; !id && i < ID_TRIES; i += 1) {
      const candidate = newId('u');
      if (!q.idTaken.get(candidate, candidate)) id = candidate;
    }
    if (!id) throw new Error('no unused user id found');
    q.userUpsert.run({
      id, organisationId: user.organisationId, username: user.username,
      givenName: user.givenName, familyName: user.familyName, type: user.type, email: user.email ?? null,
      googleEmail: user.googleEmail ?? null, microsoftEmail: user.microsoftEmail ?? null,
      rosterId: user.rosterId ?? null,
    });
    return toUser(q.userByName.get(user.organisationId, user.username) as UserRow);
  });
  // Ending sessions deletes protocol records, so these run in the write batch (write-batch.ts), after the record
  // writes asked for before them, each in the batch's savepoint: atomic without a transaction of their own.
  const setCredential = (userId: string, kind: CredentialKind, hash: string) => {
    const current = (q.credGet.get(userId, kind) as { hash: string } | undefined)?.hash;
    q.credSet.run(userId, kind, hash);
    if (current !== undefined && current !== hash) sessions.end(userId);
  };
  const setSuspended = (userId: string, at: string | undefined) => {
    if (q.suspend.run(at ?? null, userId).changes !== 1) return false;
    if (at !== undefined) sessions.end(userId);
    return true;
  };
  const deleteUser = (userId: string, retiredAt: string) => {
    q.deleteCreds.run(userId);
    q.deleteBadges.run(userId);
    q.deleteEnrolments.run(userId);
    q.deleteMemberships.run(userId);
    q.deleteSignIn.run(userId);
    q.deleteHelpCode.run(userId);
    q.deleteStaffGrants.run(userId);
    q.deleteStaffFactor.run(userId);
    q.deleteStaffTokens.run(userId);
    sessions.revokeRecords(userId);
    if (q.deleteUser.run(userId).changes !== 1) return false;
    q.retire.run(userId, retiredAt);
    return true;
  };

  return {
    async upsertOrganisation(org) {
      q.orgUpsert.run({
        id: org.id ?? newId('o'), slug: org.slug, name: org.name, login: org.login ? JSON.stringify(org.login) : null, sourceId: org.sourceId ?? null,
      });
      return findOrg(org.slug)!;
    },
    async findOrganisation(slugOrId) { return findOrg(slugOrId); },
    async searchOrganisations(query, limit) {
      return (q.orgSearch.all(query, query, limit) as OrganisationRow[]).map(toOrganisation);
    },
    async upsertUser(user) { return upsertUser.immediate(user); },
    async findUser(id) {
      const row = q.userById.get(id) as UserRow | undefined;
      return row && toUser(row);
    },
    async findUserByUsername(organisationId, username) {
      const row = q.userByName.get(organisationId, username) as UserRow | undefined;
      return row && toUser(row);
    },
    async listUsers(organisationId) { return (q.usersOfOrg.all(organisationId) as UserRow[]).map(toUser); },
    async setCredential(userId, kind, hash) { await batch.write(() => setCredential(userId, kind, hash)); },
    async getCredential(userId, kind: CredentialKind) {
      return (q.credGet.get(userId, kind) as { hash: string } | undefined)?.hash;
    },
    async credentialKinds(organisationId) {
      const out = new Map<string, CredentialKind[]>();
      for (const { userId, kind } of (q.credKinds.all(organisationId) as { userId: string; kind: CredentialKind }[]).sort(credentialOrder)) {
        out.set(userId, [...(out.get(userId) ?? []), kind]);
      }
      return out;
    },
    async endSessions(userId) { return batch.write(() => sessions.end(userId)); },
    async setSuspended(userId, at) { return batch.write(() => setSuspended(userId, at)); },
    async deleteUser(userId, retiredAt) { return batch.write(() => deleteUser(userId, retiredAt)); },
    async isRetiredUserId(id) { return q.retired.get(id) !== undefined; },
  };
}
