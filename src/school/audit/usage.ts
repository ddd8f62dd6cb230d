import type { Store, UsageDay } from '../../../adapters/store.js';
import { SchoolInputError } from '../errors.js';
import { addDays, daysBetween, eachDay, isDay } from './days.js';

/**
 * A school's use per day (docs/school-console.md → Audit and usage): successful sign-ins by method, sign-ins and
 * app launches by app, failed sign-ins; for a range of UTC days, the last 30 unless chosen, at most a year.
 */

export const DEFAULT_USAGE_DAYS = 30;
export const MOST_USAGE_DAYS = 366;

export interface UsageRange {
  from: string;
  to: string;
}

/** The range asked for (either end may be left out), or a SchoolInputError naming the refused field. */
export function usageRange(input: { from?: string | undefined; to?: string | undefined }, today: string): UsageRange {
  const problems: { path: string; message: string }[] = [];
  const day = (name: 'from' | 'to'): string | undefined => {
    const v = input[name]?.trim();
    if (!v) return undefined;
    if (!isDay(v)) problems.push({ path: name, message: 'a day written YYYY-MM-DD' });
    return v;
  };
  const givenFrom = day('from');
  const givenTo = day('to');
  if (problems.length) throw new SchoolInputError(problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
  const to = givenTo ?? (givenFrom && addDays(givenFrom, DEFAULT_USAGE_DAYS - 1) < today ? addDays(givenFrom, DEFAULT_USAGE_DAYS - 1) : today);
  const from = givenFrom ?? addDays(to, -(DEFAULT_USAGE_DAYS - 1));
  if (from > to) throw new SchoolInputError('to: the last day comes before the first', [{ path: 'to', message: 'the last day comes before the first' }]);
  if (daysBetween(from, to) > MOST_USAGE_DAYS) {
    throw new SchoolInputError(`to: at most ${MOST_USAGE_DAYS} days at once`, [{ path: 'to', message: `at most ${MOST_USAGE_DAYS} days at once` }]);
  }
  return { from, to };
}

/** The figures of a range: every day in it (those without use too), the methods and apps seen, and totals. */
export interface Usage extends UsageRange {
  days: UsageDay[];
  methods: string[];
  apps: string[];
  totals: { signIns: number; failures: number; signInsByMethod: Record<string, number>; byApp: Record<string, number> };
}

const sum = (values: Iterable<number>): number => [...values].reduce((a, b) => a + b, 0);

/** Sign-ins that day, every method together. */
export const signIns = (day: UsageDay): number => sum(Object.values(day.signInsByMethod));

function add(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

export async function usage(store: Store, organisationId: string, range: UsageRange): Promise<Usage> {
  const stored = new Map((await store.auditUsage(organisationId, range.from, range.to)).map((d) => [d.day, d]));
  const days = eachDay(range.from, range.to).map((day) => stored.get(day) ?? { day, signInsByMethod: {}, byApp: {}, failures: 0 });
  const totals = { signIns: 0, failures: 0, signInsByMethod: {} as Record<string, number>, byApp: {} as Record<string, number> };
  for (const d of days) {
    add(totals.signInsByMethod, d.signInsByMethod);
    add(totals.byApp, d.byApp);
    totals.failures += d.failures;
  }
  totals.signIns = sum(Object.values(totals.signInsByMethod));
  const byUse = (of: Record<string, number>) => Object.keys(of).sort((a, b) => of[b]! - of[a]! || a.localeCompare(b));
  return { ...range, days, methods: byUse(totals.signInsByMethod), apps: byUse(totals.byApp), totals };
}
