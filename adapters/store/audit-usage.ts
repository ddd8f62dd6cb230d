import type { AuditEvent, UsageDay } from './audit.js';

/**
 * What an event adds to its day's use (adapters/store/audit.ts UsageDay), the same rule for both backends: a
 * sign-in to its method and its app, a launch to its app, a failed sign-in to the failures, each by the
 * event's count. Anything else adds nothing. As (field, amount) pairs: `m:<method>`, `a:<client_id>`, `f`, the
 * fields of the Redis store's per-day counters too (adapters/redis/audit.ts).
 */
export function usageOf(e: Pick<AuditEvent, 'kind' | 'method' | 'clientId' | 'count'>): [field: string, amount: number][] {
  const out: [string, number][] = [];
  if (e.kind === 'sign_in' && e.method) out.push([`m:${e.method}`, e.count]);
  if ((e.kind === 'sign_in' || e.kind === 'launch') && e.clientId) out.push([`a:${e.clientId}`, e.count]);
  if (e.kind === 'sign_in_failed') out.push(['f', e.count]);
  return out;
}

/** One day's counters (usageOf's fields) as a UsageDay; undefined when nothing was counted. */
export function usageDay(day: string, fields: Iterable<[field: string, amount: number]>): UsageDay | undefined {
  const u: UsageDay = { day, signInsByMethod: {}, byApp: {}, failures: 0 };
  let any = false;
  for (const [field, amount] of fields) {
    if (!amount) continue;
    any = true;
    if (field === 'f') u.failures += amount;
    else if (field.startsWith('m:')) u.signInsByMethod[field.slice(2)] = (u.signInsByMethod[field.slice(2)] ?? 0) + amount;
    else if (field.startsWith('a:')) u.byApp[field.slice(2)] = (u.byApp[field.slice(2)] ?? 0) + amount;
  }
  return any ? u : undefined;
}

/** The UTC days from `from` to `to` (YYYY-MM-DD, inclusive), in order; none when `to` is before `from`. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00.000Z`);
  for (let t = Date.parse(`${from}T00:00:00.000Z`); t <= end; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
