import type { Redis } from 'ioredis';
import type { AuditEvent, AuditFilter } from '../store.js';
import { compareBinary } from '../store/collation.js';

/** A member of a sorted set and its score. */
export interface Scored { id: string; score: number }

/**
 * A sorted set's members from the highest score down to `min` (ZREVRANGEBYSCORE bounds: `+inf`, `(123`, `123`),
 * equal scores by id descending, `page` at a time. Each next page starts at the last score seen, skipping the
 * members of that score already given, so no page costs more than its own length (no growing offset).
 */
export async function* newestFirst(client: Redis, key: string, max: string, min: string, page: number): AsyncGenerator<Scored> {
  let top = max;
  let skip = 0;
  for (;;) {
    const flat = await client.zrevrangebyscore(key, top, min, 'WITHSCORES', 'LIMIT', skip, page);
    const got: Scored[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) got.push({ id: flat[i]!, score: Number(flat[i + 1]) });
    yield* got;
    if (got.length < page) return;
    const last = got[got.length - 1]!.score;
    const same = got.filter((s) => s.score === last).length;
    if (top === String(last)) skip += same;
    else {
      top = String(last);
      skip = same;
    }
  }
}

const newer = (a: Scored, b: Scored) => a.score - b.score || compareBinary(a.id, b.id);

/** Several walks (newestFirst) as one, newest first; a member in more than one is given once. */
export async function* mergeNewestFirst(walks: AsyncGenerator<Scored>[]): AsyncGenerator<Scored> {
  const heads = await Promise.all(walks.map(async (w) => ({ w, head: (await w.next()).value as Scored | undefined })));
  let last: Scored | undefined;
  for (;;) {
    let best: (typeof heads)[number] | undefined;
    for (const h of heads) if (h.head && (!best || newer(h.head, best.head!) > 0)) best = h;
    if (!best) return;
    const next = best.head!;
    best.head = (await best.w.next()).value as Scored | undefined;
    if (last && last.id === next.id && last.score === next.score) continue;
    last = next;
    yield next;
  }
}

/** The filter's time bounds as a sorted set's score bounds (the exact test is matches(), on `at` as text). */
export function scoreBounds(f: AuditFilter): { max: string; min: string } {
  const ms = (iso: string) => Date.parse(iso);
  let max = '+inf';
  const to = f.to === undefined ? NaN : ms(f.to);
  const before = f.before === undefined ? NaN : ms(f.before.at);
  if (!Number.isNaN(to)) max = `(${to}`;
  if (!Number.isNaN(before) && (Number.isNaN(to) || before < to)) max = String(before);
  const from = f.from === undefined ? NaN : ms(f.from);
  return { max, min: Number.isNaN(from) ? '-inf' : String(from) };
}

/** Whether an event passes the filter, decided as SQLite's statement decides it (adapters/sqlite/audit.ts). */
export function matches(e: AuditEvent, f: AuditFilter): boolean {
  if (e.organisationId !== f.organisationId) return false;
  if (f.from !== undefined && !(compareBinary(e.at, f.from) >= 0)) return false;
  if (f.to !== undefined && !(compareBinary(e.at, f.to) < 0)) return false;
  if (f.kinds && !f.kinds.includes(e.kind)) return false;
  if (f.clientId !== undefined && e.clientId !== f.clientId) return false;
  if (f.userIds && !f.userIds.some((u) => u === e.actorId || u === e.subjectId)) return false;
  if (f.before) {
    const c = compareBinary(e.at, f.before.at);
    if (c > 0 || (c === 0 && compareBinary(e.id, f.before.id) >= 0)) return false;
  }
  return true;
}
