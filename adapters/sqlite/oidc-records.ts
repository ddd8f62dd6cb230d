import type Database from 'better-sqlite3';
import type { OidcPayload, OidcRecords } from '../store.js';
import { sqliteAccountSessions } from './account-sessions.js';
import type { WriteBatch } from './write-batch.js';

/**
 * Protocol records in SQLite: one table, expiry on the injected clock, consume as a compare-and-set. Writes
 * are committed in batches (write-batch.ts): a token request writes three or four records.
 */
export function sqliteOidcRecords(db: Database.Database, now: () => number, batch: WriteBatch): OidcRecords & { sweep(): number } {
  const q = {
    upsert: db.prepare(`INSERT INTO oidc_records (model, id, payload, grant_id, uid, user_code, account_id, client_id,
      expires_at) VALUES (@model, @id, @payload, @grantId, @uid, @userCode, @accountId, @clientId, @expiresAt)
      ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
      uid = excluded.uid, user_code = excluded.user_code, account_id = excluded.account_id,
      client_id = excluded.client_id, expires_at = excluded.expires_at`),
    find: db.prepare('SELECT payload FROM oidc_records WHERE model = ? AND id = ? AND expires_at > ?'),
    findByUid: db.prepare('SELECT payload FROM oidc_records WHERE model = ? AND uid = ? AND expires_at > ?'),
    findByUserCode: db.prepare('SELECT payload FROM oidc_records WHERE model = ? AND user_code = ? AND expires_at > ?'),
    consume: db.prepare(`UPDATE oidc_records SET payload = json_set(payload, '$.consumed', ?)
      WHERE model = ? AND id = ? AND expires_at > ? AND json_extract(payload, '$.consumed') IS NULL`),
    destroy: db.prepare('DELETE FROM oidc_records WHERE model = ? AND id = ?'),
    revoke: db.prepare('DELETE FROM oidc_records WHERE grant_id = ?'),
    revokeClient: db.prepare('DELETE FROM oidc_records WHERE client_id = ?'),
    sweep: db.prepare('DELETE FROM oidc_records WHERE expires_at <= ?'),
  };
  const accounts = sqliteAccountSessions(db);
  const parse = (row: unknown): OidcPayload | undefined =>
    row ? (JSON.parse((row as { payload: string }).payload) as OidcPayload) : undefined;

  return {
    async upsert(model, id, payload, expiresIn) {
      const row = {
        model, id, payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null, uid: payload.uid ?? null, userCode: payload.userCode ?? null,
        accountId: accountIdOf(payload), clientId: clientIdOf(payload), expiresAt: now() + expiresIn * 1000,
      };
      await batch.write(() => q.upsert.run(row));
    },
    async find(model, id) { return parse(q.find.get(model, id, now())); },
    async findByUid(model, uid) { return parse(q.findByUid.get(model, uid, now())); },
    async findByUserCode(model, code) { return parse(q.findByUserCode.get(model, code, now())); },
    async consume(model, id) {
      const t = now();
      return batch.write(() => q.consume.run(Math.floor(t / 1000), model, id, t).changes === 1);
    },
    async destroy(model, id) { await batch.write(() => q.destroy.run(model, id)); },
    async revokeByGrantId(grantId) { await batch.write(() => q.revoke.run(grantId)); },
    async revokeByAccountId(accountId) { return batch.write(() => accounts.revokeRecords(accountId)); },
    async revokeByClientId(clientId) { return batch.write(() => q.revokeClient.run(clientId).changes); },
    sweep: () => q.sweep.run(now()).changes,
  };
}

/** The indexed account of a payload: a string `accountId` (oidc-provider's models), else none. */
export const accountIdOf = (payload: OidcPayload): string | null =>
  typeof payload.accountId === 'string' && payload.accountId ? payload.accountId : null;

/** The indexed client of a payload: a string `clientId` (grants, codes, tokens), else none. */
export const clientIdOf = (payload: OidcPayload): string | null =>
  typeof payload.clientId === 'string' && payload.clientId ? payload.clientId : null;
