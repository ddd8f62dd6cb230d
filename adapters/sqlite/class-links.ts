import type Database from 'better-sqlite3';
import { LanyardError } from '../../src/errors.js';
import { type ClassLink, type ClassLinks, ENDED_CLASS_LINKS_KEPT_MS } from '../store.js';
import { byKeys } from '../store/collation.js';

export interface ClassLinkRow {
  id: string; organisation_id: string; class_id: string; code_hash: string; created_at: string; created_ms: number;
  expires_at: string; expires_ms: number; created_by_id: string; created_by_username: string; revoked_at: string | null;
  ended_ms: number;
}

export const toClassLink = (r: ClassLinkRow): ClassLink => ({
  id: r.id, organisationId: r.organisation_id, classId: r.class_id, codeHash: r.code_hash, createdAt: r.created_at,
  expiresAt: r.expires_at, createdBy: { id: r.created_by_id, username: r.created_by_username },
  ...(r.revoked_at === null ? {} : { revokedAt: r.revoked_at }),
});

export const classLinkRow = (l: ClassLink): ClassLinkRow => {
  const expires = Date.parse(l.expiresAt);
  return {
    id: l.id, organisation_id: l.organisationId, class_id: l.classId, code_hash: l.codeHash, created_at: l.createdAt,
    created_ms: Date.parse(l.createdAt), expires_at: l.expiresAt, expires_ms: expires, created_by_id: l.createdBy.id,
    created_by_username: l.createdBy.username, revoked_at: l.revokedAt ?? null,
    ended_ms: l.revokedAt === undefined ? expires : Math.min(expires, Date.parse(l.revokedAt)),
  };
};

/** A link is written whole; the same id again replaces it (a copy merged twice). */
export const CLASS_LINK_UPSERT_SQL = `INSERT INTO class_links (id, organisation_id, class_id, code_hash, created_at, created_ms,
  expires_at, expires_ms, created_by_id, created_by_username, revoked_at, ended_ms)
  VALUES (@id, @organisation_id, @class_id, @code_hash, @created_at, @created_ms, @expires_at, @expires_ms, @created_by_id,
  @created_by_username, @revoked_at, @ended_ms)
  ON CONFLICT (id) DO UPDATE SET organisation_id = excluded.organisation_id, class_id = excluded.class_id,
  code_hash = excluded.code_hash, created_at = excluded.created_at, created_ms = excluded.created_ms,
  expires_at = excluded.expires_at, expires_ms = excluded.expires_ms, created_by_id = excluded.created_by_id,
  created_by_username = excluded.created_by_username, revoked_at = excluded.revoked_at, ended_ms = excluded.ended_ms`;

/** What live means, for the export and its count: `@now` is epoch milliseconds. */
export const LIVE_CLASS_LINKS_WHERE = 'revoked_at IS NULL AND expires_ms > @now';

/** Newest first (sorted here: a statement with a parameter must not sort). */
const newestFirst = byKeys<ClassLinkRow>((r) => -r.created_ms, (r) => r.id);

/**
 * Class links in SQLite (adapters/store/class-links.ts): one row per link. Each write is one statement (or,
 * for a put, one transaction with its checks), so revoking is atomic by itself; a live link is one that
 * neither expired nor was revoked at the time asked. The sweep deletes links a day after they ended.
 */
export function sqliteClassLinks(db: Database.Database, now: () => number): ClassLinks & { sweep(): number } {
  const q = {
    organisation: db.prepare('SELECT 1 FROM organisations WHERE id = ?'),
    klass: db.prepare('SELECT 1 FROM classes WHERE id = ? AND organisation_id = ?'),
    put: db.prepare(CLASS_LINK_UPSERT_SQL),
    live: db.prepare(`SELECT * FROM class_links WHERE code_hash = ? AND revoked_at IS NULL AND expires_ms > ?`),
    byId: db.prepare('SELECT * FROM class_links WHERE organisation_id = ? AND id = ?'),
    ofClass: db.prepare(`SELECT * FROM class_links WHERE organisation_id = ? AND class_id = ? AND revoked_at IS NULL AND expires_ms > ?`),
    revoke: db.prepare(`UPDATE class_links SET revoked_at = @at, ended_ms = min(expires_ms, @atMs)
      WHERE organisation_id = @organisationId AND id = @id AND revoked_at IS NULL AND expires_ms > @atMs`),
    purge: db.prepare('DELETE FROM class_links WHERE ended_ms < ?'),
  };
  // Checked and written in one transaction: a class the roster removed meanwhile gets no link.
  const put = db.transaction((row: ClassLinkRow) => {
    if (!q.organisation.get(row.organisation_id)) throw new LanyardError('not_found', `organisation ${row.organisation_id} does not exist`, 404, true);
    if (!q.klass.get(row.class_id, row.organisation_id)) throw new LanyardError('not_found', `class ${row.class_id} does not exist`, 404, true);
    q.put.run(row);
  });
  const purge = (before: number) => q.purge.run(before).changes;
  return {
    async putClassLink(link) { put.immediate(classLinkRow(link)); },
    async findLiveClassLink(codeHash, at) {
      const row = q.live.get(codeHash, Date.parse(at)) as ClassLinkRow | undefined;
      return row && toClassLink(row);
    },
    async findClassLink(organisationId, id) {
      const row = q.byId.get(organisationId, id) as ClassLinkRow | undefined;
      return row && toClassLink(row);
    },
    async listClassLinks(organisationId, classId, at) {
      return (q.ofClass.all(organisationId, classId, Date.parse(at)) as ClassLinkRow[]).sort(newestFirst).map(toClassLink);
    },
    async revokeClassLink(organisationId, id, at) {
      return q.revoke.run({ organisationId, id, at, atMs: Date.parse(at) }).changes === 1;
    },
    async purgeClassLinksBefore(before) { return purge(Date.parse(before)); },
    sweep: () => purge(now() - ENDED_CLASS_LINKS_KEPT_MS),
  };
}
