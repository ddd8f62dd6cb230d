import type Database from 'better-sqlite3';
import { LanyardError } from '../../src/errors.js';
import type { ClientLogos, StoredLogo } from '../store.js';

export interface LogoRow { client_id: string; hash: string; content_type: string; bytes: Buffer; source_url: string; fetched_at: string }

export const logoRow = (l: StoredLogo): LogoRow => ({
  client_id: l.clientId, hash: l.hash, content_type: l.contentType, bytes: l.bytes, source_url: l.sourceUrl, fetched_at: l.fetchedAt,
});

export const toLogo = (r: LogoRow): StoredLogo => ({
  clientId: r.client_id, hash: r.hash, contentType: r.content_type, bytes: Buffer.from(r.bytes), sourceUrl: r.source_url, fetchedAt: r.fetched_at,
});

export const LOGO_UPSERT_SQL = `INSERT OR REPLACE INTO client_logos (client_id, hash, content_type, bytes, source_url, fetched_at)
  VALUES (@client_id, @hash, @content_type, @bytes, @source_url, @fetched_at)`;

/** Apps' fetched logos in SQLite; they go with their client (ON DELETE CASCADE). */
export function sqliteLogos(db: Database.Database): ClientLogos {
  const q = {
    client: db.prepare('SELECT 1 FROM clients WHERE client_id = ?'),
    put: db.prepare(LOGO_UPSERT_SQL),
    find: db.prepare('SELECT * FROM client_logos WHERE client_id = ? AND hash = ?'),
    prune: db.prepare('DELETE FROM client_logos WHERE client_id = ? AND hash IS NOT ?'),
  };
  const put = db.transaction((logo: StoredLogo) => {
    if (!q.client.get(logo.clientId)) throw new LanyardError('not_found', `client ${logo.clientId} does not exist`, 404, true);
    q.put.run(logoRow(logo));
  });
  return {
    async putClientLogo(logo) { put.immediate(logo); },
    async findClientLogo(clientId, hash) {
      const row = q.find.get(clientId, hash) as LogoRow | undefined;
      return row && toLogo(row);
    },
    async pruneClientLogos(clientId, keepHash) { return q.prune.run(clientId, keepHash ?? null).changes; },
  };
}
