import type Database from 'better-sqlite3';
import { LanyardError } from '../../src/errors.js';
import type { AppRequest, AppRequests } from '../store.js';
import { byKeys } from '../store/collation.js';

export interface AppRequestRow {
  organisation_id: string; client_id: string; requested_by: string; requested_at: string; note: string | null; status: string;
  answer: string | null; answered_at: string | null;
}

export const toAppRequest = (r: AppRequestRow): AppRequest => ({
  clientId: r.client_id, organisationId: r.organisation_id, requestedBy: r.requested_by, requestedAt: r.requested_at,
  note: r.note ?? undefined, status: r.status as AppRequest['status'], answer: r.answer ?? undefined, answeredAt: r.answered_at ?? undefined,
});

export const appRequestRow = (a: AppRequest): AppRequestRow => ({
  organisation_id: a.organisationId, client_id: a.clientId, requested_by: a.requestedBy, requested_at: a.requestedAt,
  note: a.note ?? null, status: a.status, answer: a.answer ?? null, answered_at: a.answeredAt ?? null,
});

export const APP_REQUEST_UPSERT_SQL = `INSERT INTO app_requests (organisation_id, client_id, requested_by, requested_at, note, status,
  answer, answered_at) VALUES (@organisation_id, @client_id, @requested_by, @requested_at, @note, @status, @answer, @answered_at)
  ON CONFLICT (organisation_id, client_id) DO UPDATE SET requested_by = excluded.requested_by, requested_at = excluded.requested_at,
  note = excluded.note, status = excluded.status, answer = excluded.answer, answered_at = excluded.answered_at`;

/** A school's requests oldest first, a client's by school (sorted here: a statement with a parameter must not sort). */
const oldestFirst = byKeys<AppRequestRow>((r) => r.requested_at, (r) => r.client_id);
const byOrganisation = byKeys<AppRequestRow>((r) => r.organisation_id);

/** Apps asking to be used by a school, in SQLite (adapters/store/app-requests.ts); they go with a deleted client. */
export function sqliteAppRequests(db: Database.Database): AppRequests {
  const q = {
    client: db.prepare('SELECT 1 FROM clients WHERE client_id = ?'),
    put: db.prepare(APP_REQUEST_UPSERT_SQL),
    find: db.prepare('SELECT * FROM app_requests WHERE organisation_id = ? AND client_id = ?'),
    delete: db.prepare('DELETE FROM app_requests WHERE organisation_id = ? AND client_id = ?'),
    ofOrganisation: db.prepare('SELECT * FROM app_requests WHERE organisation_id = ?'),
    ofClient: db.prepare('SELECT * FROM app_requests WHERE client_id = ?'),
  };
  // Checked and written in one transaction: a client deleted meanwhile cannot leave a request behind.
  const put = db.transaction((row: AppRequestRow) => {
    if (!q.client.get(row.client_id)) throw new LanyardError('not_found', `client ${row.client_id} does not exist`, 404, true);
    q.put.run(row);
  });
  return {
    async putAppRequest(request) { put.immediate(appRequestRow(request)); },
    async findAppRequest(organisationId, clientId) {
      const row = q.find.get(organisationId, clientId) as AppRequestRow | undefined;
      return row && toAppRequest(row);
    },
    async deleteAppRequest(organisationId, clientId) { return q.delete.run(organisationId, clientId).changes === 1; },
    async listAppRequests(organisationId) { return (q.ofOrganisation.all(organisationId) as AppRequestRow[]).sort(oldestFirst).map(toAppRequest); },
    async listClientAppRequests(clientId) { return (q.ofClient.all(clientId) as AppRequestRow[]).sort(byOrganisation).map(toAppRequest); },
  };
}
