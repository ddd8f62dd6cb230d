import type { AuditEvent, AuditTrail } from '../store.js';
import { daysBetween, usageDay } from '../store/audit-usage.js';
import { APPEND_AUDIT, IMPORT_AUDIT, PURGE_AUDIT } from './audit-scripts.js';
import { matches, mergeNewestFirst, newestFirst, type Scored, scoreBounds } from './audit-walk.js';
import type { RedisContext } from './context.js';
import { defineScript, execPipeline } from './scripts.js';
import type { EntryIO } from './transfer.js';

/** Events one append script writes: a batch larger than this is written in parts (each atomic). */
const APPEND_CHUNK = 200;
/** Events one purge script removes: a short hold of Redis each time. */
const PURGE_CHUNK = 500;
/** Ids a query reads at once, at least and at most. */
const QUERY_PAGE = { least: 50, most: 500 };
/** Days whose use one pipeline reads. */
const DAYS_AT_ONCE = 400;
/** Events the export reads at once. */
const EXPORT_PAGE = 500;

const scoreOf = (e: AuditEvent): number => {
  const ms = Date.parse(e.at);
  if (Number.isNaN(ms)) throw new Error(`audit event ${e.id}: at is not an ISO 8601 instant`);
  return ms;
};

/** As JSON.stringify keeps it (no undefined fields), so that what is read back is what SQLite gives. */
const eventJson = (e: AuditEvent): string => JSON.stringify(e);

/**
 * The audit trail in Redis (key layout: key-layout.ts `{audit}`; scripts: audit-scripts.ts). Appending is one
 * script per batch: the event, its indexes (school, person as actor or subject, app, time) and its day's use
 * counters, or the merge into its aggregate's row, atomically. A query walks the most selective index newest
 * first (a person's, else an app's, else the school's) and filters what it reads as SQLite does; the use per
 * day is read from the counters kept at each append.
 */
export function redisAudit({ client, keys }: RedisContext) {
  const k = keys.audit;
  const append = defineScript(client, 'lanyardAppendAudit', APPEND_AUDIT);
  const purge = defineScript(client, 'lanyardPurgeAudit', PURGE_AUDIT);
  const importOne = defineScript(client, 'lanyardImportAudit', IMPORT_AUDIT);

  async function read(ids: string[]): Promise<AuditEvent[]> {
    if (!ids.length) return [];
    return (await client.hmget(k.events, ...ids)).flatMap((json) => (json ? [JSON.parse(json) as AuditEvent] : []));
  }

  const audit: AuditTrail = {
    async appendAudit(events) {
      for (let i = 0; i < events.length; i += APPEND_CHUNK) {
        const args = events.slice(i, i + APPEND_CHUNK).flatMap((e) => [eventJson(e), scoreOf(e)]);
        await append([k.events], [k.prefix, ...args]);
      }
    },
    async queryAudit(f) {
      if (f.limit <= 0 || f.kinds?.length === 0 || f.userIds?.length === 0) return [];
      const { max, min } = scoreBounds(f);
      const page = Math.min(QUERY_PAGE.most, Math.max(QUERY_PAGE.least, f.limit * 2));
      const walk = (key: string) => newestFirst(client, key, max, min, page);
      const o = f.organisationId;
      const ids = f.userIds ? mergeNewestFirst([...new Set(f.userIds)].map((u) => walk(k.user(o, u))))
        : walk(f.clientId !== undefined ? k.client(o, f.clientId) : k.organisation(o));
      const found: AuditEvent[] = [];
      let batch: Scored[] = [];
      const take = async () => {
        for (const e of await read(batch.map((s) => s.id))) if (found.length < f.limit && matches(e, f)) found.push(e);
        batch = [];
      };
      for await (const s of ids) {
        batch.push(s);
        if (batch.length >= page) await take();
        if (found.length >= f.limit) break;
      }
      if (found.length < f.limit) await take();
      return found;
    },
    async auditUsage(organisationId, fromDay, toDay) {
      const days = daysBetween(fromDay, toDay);
      const out = [];
      for (let i = 0; i < days.length; i += DAYS_AT_ONCE) {
        const part = days.slice(i, i + DAYS_AT_ONCE);
        const pipeline = client.pipeline();
        for (const day of part) pipeline.hgetall(k.usage(organisationId, day));
        const hashes = (await execPipeline(pipeline)) as Record<string, string>[];
        for (const [j, hash] of hashes.entries()) {
          const u = usageDay(part[j]!, Object.entries(hash).map(([field, n]): [string, number] => [field, Number(n)]));
          if (u) out.push(u);
        }
      }
      return out;
    },
    async purgeAuditBefore(before) {
      const ms = Date.parse(before);
      if (Number.isNaN(ms)) throw new Error('purgeAuditBefore: not an ISO 8601 instant');
      let removed = 0;
      for (;;) {
        const [looked, gone] = (await purge([k.events], [k.prefix, ms, PURGE_CHUNK])) as [number, number];
        removed += gone;
        if (looked < PURGE_CHUNK) return removed;
      }
    },
  };

  /** `lanyard store copy`: oldest first, by the time index; each write replaces (import-audit). */
  const entries: EntryIO<'audit_event'> = {
    async *read() {
      for (let from = 0; ; from += EXPORT_PAGE) {
        const ids = await client.zrange(k.byTime, from, from + EXPORT_PAGE - 1);
        yield* await read(ids);
        if (ids.length < EXPORT_PAGE) return;
      }
    },
    count: () => client.hlen(k.events),
    async write(e) { await importOne([k.events], [k.prefix, eventJson(e), scoreOf(e)]); },
  };

  return { audit, entries };
}
