import type Database from 'better-sqlite3';
import type { AuditEvent, AuditFilter, AuditKind, AuditTrail, UsageDay } from '../store.js';
import { usageDay, usageOf } from '../store/audit-usage.js';
import type { WriteBatch } from './write-batch.js';

/** Row shape of migrations/012-audit.ts and its mapping to the store's type and back. */
export interface AuditRow {
  id: string; organisation_id: string; at: string; kind: string; action: string; actor_id: string | null;
  actor_name: string | null; subject_id: string | null; subject_name: string | null; method: string | null;
  device_kind: string | null; client_id: string | null; class_id: string | null; result: string | null;
  source: string | null; count: number; aggregate: string | null; detail: string | null;
}

const COLUMNS = [
  'id', 'organisation_id', 'at', 'kind', 'action', 'actor_id', 'actor_name', 'subject_id', 'subject_name', 'method',
  'device_kind', 'client_id', 'class_id', 'result', 'source', 'count', 'aggregate', 'detail',
] as const;
const SELECTED = COLUMNS.join(', ');

/** The optional fields, as the event names them and as the row does. */
const OPTIONAL = [
  ['actorId', 'actor_id'], ['actorName', 'actor_name'], ['subjectId', 'subject_id'], ['subjectName', 'subject_name'],
  ['method', 'method'], ['deviceKind', 'device_kind'], ['clientId', 'client_id'], ['classId', 'class_id'],
  ['result', 'result'], ['source', 'source'], ['aggregate', 'aggregate'],
] as const;

/** An event as read: the fields it has, none set to undefined (as the Redis store's JSON gives it). */
export function toAuditEvent(r: AuditRow): AuditEvent {
  const e: AuditEvent = { id: r.id, organisationId: r.organisation_id, at: r.at, kind: r.kind as AuditEvent['kind'], action: r.action, count: r.count };
  for (const [field, column] of OPTIONAL) if (r[column] !== null) e[field] = r[column];
  if (r.detail !== null) e.detail = JSON.parse(r.detail) as Record<string, string>;
  return e;
}

export function auditRow(e: AuditEvent): AuditRow {
  const row = { id: e.id, organisation_id: e.organisationId, at: e.at, kind: e.kind, action: e.action, count: e.count } as AuditRow;
  for (const [field, column] of OPTIONAL) row[column] = e[field] ?? null;
  row.detail = e.detail === undefined ? null : JSON.stringify(e.detail);
  return row;
}

const VALUES = COLUMNS.map((c) => `@${c}`).join(', ');
/** The import: the row as it is, replacing one of the same id or (in its school) the same aggregate key. */
export const AUDIT_IMPORT_SQL = `INSERT OR REPLACE INTO audit_events (${SELECTED}) VALUES (${VALUES})`;
/** The export, oldest first. */
export const AUDIT_EXPORT_SQL = `SELECT ${SELECTED} FROM audit_events ORDER BY at, id`;

/** Rows one purge statement removes: a short hold of the write lock each time. */
const PURGE_CHUNK = 2000;
/** Differently shaped queries kept prepared (filters make the statement); past it the cache starts again. */
const QUERY_CACHE = 64;

/**
 * The audit trail in SQLite. Appends go through the write batch (one commit with the other writes of the
 * moment); a batch of events is one savepoint, so it is written whole or not at all. An event whose id is
 * stored already is skipped; one with an aggregate key merges into its row by the unique index (count summed,
 * `at` the latest): atomic, also between processes on one file.
 */
export function sqliteAudit(db: Database.Database, batch: WriteBatch): AuditTrail {
  const q = {
    append: db.prepare(`INSERT INTO audit_events (${SELECTED}) VALUES (${VALUES})
      ON CONFLICT (id) DO NOTHING ON CONFLICT (organisation_id, aggregate) WHERE aggregate IS NOT NULL
      DO UPDATE SET count = count + excluded.count, at = max(at, excluded.at)`),
    // Grouped in the order of the usage index, which covers it: no sorting, no table read.
    usage: db.prepare(`SELECT day, kind, method, client_id AS clientId, sum(count) AS n FROM audit_events
      WHERE organisation_id = ? AND day >= ? AND day <= ? AND kind IN ('sign_in', 'sign_in_failed', 'launch')
      GROUP BY day, kind, method, client_id`),
    purge: db.prepare('DELETE FROM audit_events WHERE rowid IN (SELECT rowid FROM audit_events WHERE at < ? LIMIT ?)'),
  };
  const queries = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let stmt = queries.get(sql);
    if (!stmt) {
      if (queries.size >= QUERY_CACHE) queries.clear();
      queries.set(sql, stmt = db.prepare(sql));
    }
    return stmt;
  };

  return {
    async appendAudit(events) {
      if (!events.length) return;
      const rows = events.map(auditRow);
      await batch.write(() => { for (const row of rows) q.append.run(row); });
    },
    async queryAudit(filter) {
      const built = querySql(filter);
      return built ? (prepared(built.sql).all(...built.params) as AuditRow[]).map(toAuditEvent) : [];
    },
    async auditUsage(organisationId, fromDay, toDay) {
      type Row = { day: string; kind: AuditKind; method: string | null; clientId: string | null; n: number };
      const byDay = new Map<string, [string, number][]>();
      for (const r of q.usage.all(organisationId, fromDay, toDay) as Row[]) {
        let fields = byDay.get(r.day);
        if (!fields) byDay.set(r.day, fields = []);
        fields.push(...usageOf({ kind: r.kind, method: r.method ?? undefined, clientId: r.clientId ?? undefined, count: r.n }));
      }
      return [...byDay].flatMap(([day, fields]) => usageDay(day, fields) ?? []) satisfies UsageDay[];
    },
    async purgeAuditBefore(before) {
      let removed = 0;
      for (;;) {
        const { changes } = await batch.write(() => q.purge.run(before, PURGE_CHUNK));
        removed += changes;
        if (changes < PURGE_CHUNK) return removed;
      }
    },
  };
}

/**
 * The statement for a filter and its parameters (positional), or undefined when nothing can match (no
 * limit, an empty list of kinds or users). Newest first by the school's (organisation, at, id) index, or by an
 * app's (organisation, client, at, id).
 */
function querySql(f: AuditFilter): { sql: string; params: unknown[] } | undefined {
  if (f.limit <= 0 || f.kinds?.length === 0 || f.userIds?.length === 0) return undefined;
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  const marks = (values: readonly string[]) => values.map(() => '?').join(', ');
  add('organisation_id = ?', f.organisationId);
  if (f.from !== undefined) add('at >= ?', f.from);
  if (f.to !== undefined) add('at < ?', f.to);
  if (f.kinds) add(`kind IN (${marks(f.kinds)})`, ...f.kinds);
  if (f.clientId !== undefined) add('client_id = ?', f.clientId);
  // A person's events by the actor and subject indexes, then sorted: read through the school's index newest
  // first, a pupil's few events of a year would cost a scan of the whole school's (20 ms for 66,000, not 0.5).
  if (f.userIds) {
    add(`rowid IN (SELECT rowid FROM audit_events WHERE organisation_id = ? AND actor_id IN (${marks(f.userIds)})
      UNION SELECT rowid FROM audit_events WHERE organisation_id = ? AND subject_id IN (${marks(f.userIds)}))`,
    f.organisationId, ...f.userIds, f.organisationId, ...f.userIds);
  }
  if (f.before) add('(at < ? OR (at = ? AND id < ?))', f.before.at, f.before.at, f.before.id);
  params.push(f.limit);
  return { sql: `SELECT ${SELECTED} FROM audit_events WHERE ${where.join(' AND ')} ORDER BY at DESC, id DESC LIMIT ?`, params };
}
