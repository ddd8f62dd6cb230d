import type Database from 'better-sqlite3';
import type { Clients } from '../store.js';
import { LanyardError } from '../../src/errors.js';
import { byKeys } from '../store/collation.js';
import { type ClientRow, clientRow, clientUpsertSql, type SecretRow, secretRow, toClient, toSecret } from './rows.js';

/** A client's secrets in the order they were made (sorted here: a statement with a parameter must not sort). */
const secretsInOrder = byKeys<SecretRow>((s) => s.created_at, (s) => s.id);

/** Clients and their secrets in SQLite; a client's secrets go with it (ON DELETE CASCADE). */
export function sqliteClients(db: Database.Database): Clients {
  const q = {
    // A replaced client keeps when it was created.
    put: db.prepare(clientUpsertSql(true)),
    find: db.prepare('SELECT * FROM clients WHERE client_id = ?'),
    all: db.prepare('SELECT * FROM clients ORDER BY client_id'),
    delete: db.prepare('DELETE FROM clients WHERE client_id = ?'),
    deleteConnections: db.prepare('DELETE FROM app_connections WHERE client_id = ?'),
    deleteAppRequests: db.prepare('DELETE FROM app_requests WHERE client_id = ?'),
    putSecret: db.prepare(`INSERT INTO client_secrets (client_id, id, hash, label, hint, created_at, last_used_at, expires_at)
      VALUES (@client_id, @id, @hash, @label, @hint, @created_at, @last_used_at, @expires_at)
      ON CONFLICT (client_id, id) DO UPDATE SET hash = excluded.hash, label = excluded.label, hint = excluded.hint,
      created_at = excluded.created_at, last_used_at = excluded.last_used_at, expires_at = excluded.expires_at`),
    secrets: db.prepare('SELECT * FROM client_secrets WHERE client_id = ?'),
    deleteSecret: db.prepare('DELETE FROM client_secrets WHERE client_id = ? AND id = ?'),
    touchSecret: db.prepare('UPDATE client_secrets SET last_used_at = ? WHERE client_id = ? AND id = ?'),
  };
  // A deleted client leaves no school connected to it (adapters/store/connections.ts), and no request to one.
  const deleteClient = db.transaction((clientId: string) => {
    q.deleteConnections.run(clientId);
    q.deleteAppRequests.run(clientId);
    return q.delete.run(clientId).changes === 1;
  });
  return {
    async putClient(client) { q.put.run(clientRow(client)); },
    async findClient(clientId) {
      const row = q.find.get(clientId) as ClientRow | undefined;
      return row && toClient(row);
    },
    async listClients() { return (q.all.all() as ClientRow[]).map(toClient); },
    async deleteClient(clientId) { return deleteClient(clientId); },
    async putClientSecret(secret) {
      if (!q.find.get(secret.clientId)) throw new LanyardError('not_found', `client ${secret.clientId} does not exist`, 404, true);
      q.putSecret.run(secretRow(secret));
    },
    async listClientSecrets(clientId) { return (q.secrets.all(clientId) as SecretRow[]).sort(secretsInOrder).map(toSecret); },
    async deleteClientSecret(clientId, secretId) { return q.deleteSecret.run(clientId, secretId).changes === 1; },
    async touchClientSecret(clientId, secretId, at) { q.touchSecret.run(at, clientId, secretId); },
  };
}
