import type Database from 'better-sqlite3';
import type { KeyRecords, StoredKey } from '../store.js';
import { LanyardError } from '../../src/errors.js';
import { type KeyRow, toKey } from './rows.js';

/** Signing keys in SQLite: a partial unique index allows one active key per month. */
export function sqliteKeys(db: Database.Database): KeyRecords {
  const q = {
    all: db.prepare('SELECT * FROM signing_keys ORDER BY month, created_at, kid'),
    active: db.prepare('SELECT * FROM signing_keys WHERE month = ? AND revoked_at IS NULL'),
    insert: db.prepare(`INSERT INTO signing_keys (kid, month, not_before, not_after, certificate,
      encrypted_private_key, created_at) VALUES (@kid, @month, @notBefore, @notAfter, @certificate,
      @encryptedPrivateKey, @createdAt) ON CONFLICT DO NOTHING`),
    revoke: db.prepare('UPDATE signing_keys SET revoked_at = ? WHERE kid = ? AND revoked_at IS NULL'),
    delete: db.prepare('DELETE FROM signing_keys WHERE kid = ?'),
  };
  const insertIfAbsent = db.transaction((key: StoredKey) => {
    q.insert.run(key);
    return toKey(q.active.get(key.month) as KeyRow);
  });
  const replace = db.transaction((kid: string, key: StoredKey, revokedAt: string) => {
    if (q.revoke.run(revokedAt, kid).changes !== 1) throw new LanyardError('not_found', `signing key ${kid} is not an active key`, 404, true);
    q.insert.run(key);
  });
  return {
    async listKeys() { return (q.all.all() as KeyRow[]).map(toKey); },
    async insertKeyIfAbsent(key) { return insertIfAbsent.immediate(key); },
    async replaceKey(kid, key, revokedAt) { replace.immediate(kid, key, revokedAt); },
    async deleteKey(kid) { q.delete.run(kid); },
  };
}
