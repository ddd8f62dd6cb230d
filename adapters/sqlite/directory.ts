import type Database from 'better-sqlite3';
import { newId } from '../../src/accounts/ids.js';
import type { CredentialKind, Directory } from '../store.js';
import { type OrganisationRow, toOrganisation, toUser, type UserRow } from './rows.js';

/** Organisations, users and credentials in SQLite. */
export function sqliteDirectory(db: Database.Database): Directory {
  const q = {
    // A slug wins over an id that happens to look the same.
    orgBySlugOrId: db.prepare('SELECT * FROM organisations WHERE slug = ? OR id = ? ORDER BY slug = ? DESC LIMIT 1'),
    orgUpsert: db.prepare(`INSERT INTO organisations (id, slug, name, login) VALUES (@id, @slug, @name, @login)
      ON CONFLICT (slug) DO UPDATE SET name = excluded.name, login = coalesce(excluded.login, login)`),
    // Alphabetical as people read it: BINARY collation would sort 'Zeta' before 'alpha'.
    orgSearch: db.prepare(`SELECT * FROM organisations
      WHERE instr(lower(name), lower(?)) > 0 OR instr(lower(slug), lower(?)) > 0
      ORDER BY name COLLATE NOCASE, slug LIMIT ?`),
    userById: db.prepare('SELECT * FROM users WHERE id = ?'),
    userByName: db.prepare('SELECT * FROM users WHERE organisation_id = ? AND username = ?'),
    usersOfOrg: db.prepare('SELECT * FROM users WHERE organisation_id = ? ORDER BY username'),
    userUpsert: db.prepare(`INSERT INTO users (id, organisation_id, username, given_name, family_name, type, email,
      google_email, microsoft_email, roster_id) VALUES (@id, @organisationId, @username, @givenName, @familyName,
      @type, @email, @googleEmail, @microsoftEmail, @rosterId)
      ON CONFLICT (organisation_id, username) DO UPDATE SET given_name = excluded.given_name,
      family_name = excluded.family_name, type = excluded.type, email = excluded.email,
      google_email = excluded.google_email, microsoft_email = excluded.microsoft_email, roster_id = excluded.roster_id`),
    credSet: db.prepare(`INSERT INTO credentials (user_id, kind, hash) VALUES (?, ?, ?)
      ON CONFLICT (user_id, kind) DO UPDATE SET hash = excluded.hash`),
    credGet: db.prepare('SELECT hash FROM credentials WHERE user_id = ? AND kind = ?'),
  };
  const findOrg = (slugOrId: string) => {
    const row = q.orgBySlugOrId.get(slugOrId, slugOrId, slugOrId) as OrganisationRow | undefined;
    return row && toOrganisation(row);
  };

  return {
    async upsertOrganisation(org) {
      q.orgUpsert.run({ id: org.id ?? newId('o'), slug: org.slug, name: org.name, login: org.login ? JSON.stringify(org.login) : null });
      return findOrg(org.slug)!;
    },
    async findOrganisation(slugOrId) { return findOrg(slugOrId); },
    async searchOrganisations(query, limit) {
      return (q.orgSearch.all(query, query, limit) as OrganisationRow[]).map(toOrganisation);
    },
    async upsertUser(user) {
      q.userUpsert.run({
        id: user.id ?? newId('u'), organisationId: user.organisationId, username: user.username,
        givenName: user.givenName, familyName: user.familyName, type: user.type, email: user.email ?? null,
        googleEmail: user.googleEmail ?? null, microsoftEmail: user.microsoftEmail ?? null,
        rosterId: user.rosterId ?? null,
      });
      return toUser(q.userByName.get(user.organisationId, user.username) as UserRow);
    },
    async findUser(id) {
      const row = q.userById.get(id) as UserRow | undefined;
      return row && toUser(row);
    },
    async findUserByUsername(organisationId, username) {
      const row = q.userByName.get(organisationId, username) as UserRow | undefined;
      return row && toUser(row);
    },
    async listUsers(organisationId) { return (q.usersOfOrg.all(organisationId) as UserRow[]).map(toUser); },
    async setCredential(userId, kind: CredentialKind, hash) { q.credSet.run(userId, kind, hash); },
    async getCredential(userId, kind: CredentialKind) {
      return (q.credGet.get(userId, kind) as { hash: string } | undefined)?.hash;
    },
  };
}
