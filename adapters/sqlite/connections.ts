import type Database from 'better-sqlite3';
import type { Connections } from '../store.js';
import { LanyardError } from '../../src/errors.js';
import { byKeys } from '../store/collation.js';
import { CONNECTION_UPSERT_SQL, type ConnectionRow, connectionRow, toConnection } from './rows.js';

/** A school's apps in its order, and an app's schools (sorted here: a statement with a parameter must not sort). */
const inSchoolOrder = byKeys<ConnectionRow>((c) => c.position, (c) => c.client_id);
const byOrganisation = byKeys<ConnectionRow>((c) => c.organisation_id);

/** The apps each school uses, in SQLite (adapters/store/connections.ts). */
export function sqliteConnections(db: Database.Database): Connections {
  const q = {
    client: db.prepare('SELECT 1 FROM clients WHERE client_id = ?'),
    put: db.prepare(CONNECTION_UPSERT_SQL),
    delete: db.prepare('DELETE FROM app_connections WHERE organisation_id = ? AND client_id = ?'),
    find: db.prepare('SELECT * FROM app_connections WHERE organisation_id = ? AND client_id = ?'),
    ofOrganisation: db.prepare('SELECT * FROM app_connections WHERE organisation_id = ?'),
    ofClient: db.prepare('SELECT * FROM app_connections WHERE client_id = ?'),
  };
  // Checked and written in one transaction: a client deleted meanwhile cannot leave a connection behind.
  const put = db.transaction((row: ConnectionRow) => {
    if (!q.client.get(row.client_id)) throw new LanyardError('not_found', `client ${row.client_id} does not exist`, 404, true);
    q.put.run(row);
  });
  return {
    async putConnection(c) { put(connectionRow(c)); },
    async deleteConnection(organisationId, clientId) { return q.delete.run(organisationId, clientId).changes === 1; },
    async findConnection(organisationId, clientId) {
      const row = q.find.get(organisationId, clientId) as ConnectionRow | undefined;
      return row && toConnection(row);
    },
    async listConnections(organisationId) { return (q.ofOrganisation.all(organisationId) as ConnectionRow[]).sort(inSchoolOrder).map(toConnection); },
    async listClientConnections(clientId) { return (q.ofClient.all(clientId) as ConnectionRow[]).sort(byOrganisation).map(toConnection); },
  };
}
