import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Clock } from '../src/clock.js';
import { newId } from '../src/accounts/ids.js';
import { loginRecords } from './sqlite/login-records.js';
import { type KeyRow, type OrganisationRow, toKey, toOrganisation, toUser, type UserRow } from './sqlite/rows.js';
import { SCHEMA } from './sqlite/schema.js';
import type { CredentialKind, OidcPayload, OidcRecords, Store, StoredKey } from './store.js';

/** Embedded default backend: one SQLite file (WAL), durable, for a single node. */


/** `path` is a file path or ':memory:'. The directory is created when missing. */
export function openSqliteStore(path: string, clock: Clock): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);

  const now = () => clock.now().getTime();
  const q = {
    upsert: db.prepare(`INSERT INTO oidc_records (model, id, payload, grant_id, uid, user_code, expires_at)
      VALUES (@model, @id, @payload, @grantId, @uid, @userCode, @expiresAt)
      ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
      uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`),
    find: db.prepare('SELECT payload FROM oidc_records WHERE model = ? AND id = ? AND expires_at > ?'),
    findByUid: db.prepare('SELECT payload FROM oidc_records WHERE model = ? AND uid = ? AND expires_at > ?'),
    findByUserCode: db.prepare('SELECT payload FROM oidc_records WHERE model = ? AND user_code = ? AND expires_at > ?'),
    consume: db.prepare(`UPDATE oidc_records SET payload = json_set(payload, '$.consumed', ?)
      WHERE model = ? AND id = ? AND expires_at > ? AND json_extract(payload, '$.consumed') IS NULL`),
    destroy: db.prepare('DELETE FROM oidc_records WHERE model = ? AND id = ?'),
    revoke: db.prepare('DELETE FROM oidc_records WHERE grant_id = ?'),
    sweep: db.prepare('DELETE FROM oidc_records WHERE expires_at <= ?'),
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
    keysAll: db.prepare('SELECT * FROM signing_keys ORDER BY month, created_at, kid'),
    keyActive: db.prepare('SELECT * FROM signing_keys WHERE month = ? AND revoked_at IS NULL'),
    keyInsert: db.prepare(`INSERT INTO signing_keys (kid, month, not_before, not_after, certificate,
      encrypted_private_key, created_at) VALUES (@kid, @month, @notBefore, @notAfter, @certificate,
      @encryptedPrivateKey, @createdAt) ON CONFLICT DO NOTHING`),
    keyRevoke: db.prepare('UPDATE signing_keys SET revoked_at = ? WHERE kid = ? AND revoked_at IS NULL'),
    keyDelete: db.prepare('DELETE FROM signing_keys WHERE kid = ?'),
    settingGet: db.prepare('SELECT value FROM settings WHERE name = ?'),
    settingInsert: db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
    settingPut: db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value'),
  };

  const parse = (row: unknown): OidcPayload | undefined =>
    row ? (JSON.parse((row as { payload: string }).payload) as OidcPayload) : undefined;

  const oidc: OidcRecords = {
    async upsert(model, id, payload, expiresIn) {
      q.upsert.run({
        model, id, payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null, uid: payload.uid ?? null, userCode: payload.userCode ?? null,
        expiresAt: now() + expiresIn * 1000,
      });
    },
    async find(model, id) { return parse(q.find.get(model, id, now())); },
    async findByUid(model, uid) { return parse(q.findByUid.get(model, uid, now())); },
    async findByUserCode(model, code) { return parse(q.findByUserCode.get(model, code, now())); },
    async consume(model, id) { return q.consume.run(Math.floor(now() / 1000), model, id, now()).changes === 1; },
    async destroy(model, id) { q.destroy.run(model, id); },
    async revokeByGrantId(grantId) { q.revoke.run(grantId); },
  };

  const findOrg = (slugOrId: string) => {
    const row = q.orgBySlugOrId.get(slugOrId, slugOrId, slugOrId) as OrganisationRow | undefined;
    return row && toOrganisation(row);
  };
  const insertKey = db.transaction((key: StoredKey) => {
    q.keyInsert.run(key);
    return toKey(q.keyActive.get(key.month) as KeyRow);
  });
  const replaceKey = db.transaction((kid: string, key: StoredKey, revokedAt: string) => {
    if (q.keyRevoke.run(revokedAt, kid).changes !== 1) throw new Error(`signing key ${kid} is not an active key`);
    q.keyInsert.run(key);
  });
  const getOrCreate = db.transaction((name: string, value: string) => {
    q.settingInsert.run(name, value);
    return (q.settingGet.get(name) as { value: string }).value;
  });

  const login = loginRecords(db, now);
  return {
    oidc,
    ...login,
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
    async listKeys() { return (q.keysAll.all() as KeyRow[]).map(toKey); },
    async insertKeyIfAbsent(key) { return insertKey(key); },
    async replaceKey(kid, key, revokedAt) { replaceKey(kid, key, revokedAt); },
    async deleteKey(kid) { q.keyDelete.run(kid); },
    async getOrCreateSetting(name, create) {
      const existing = q.settingGet.get(name) as { value: string } | undefined;
      return existing ? existing.value : getOrCreate(name, create());
    },
    async getSetting(name) { return (q.settingGet.get(name) as { value: string } | undefined)?.value; },
    async putSetting(name, value) { q.settingPut.run(name, value); },
    async sweep() { return q.sweep.run(now()).changes + login.sweepCounters(); },
    async close() { if (db.open) db.close(); },
  };
}
