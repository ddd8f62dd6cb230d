import type { Store } from '../../../adapters/store.js';
import { dayOf } from './days.js';
import { signIns } from './usage.js';

/** The school's sign-ins so far today (UTC), for its admins' front page (docs/school-console.md → Audit and usage). */
export interface Today {
  day: string;
  signIns: number;
  failures: number;
}

export async function signInsToday(store: Store, organisationId: string, now: Date): Promise<Today> {
  const day = dayOf(now);
  const [today] = await store.auditUsage(organisationId, day, day);
  return { day, signIns: today ? signIns(today) : 0, failures: today?.failures ?? 0 };
}
