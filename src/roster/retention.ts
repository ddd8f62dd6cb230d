import type { Store, User } from '../../adapters/store.js';
import { deleteUser } from '../accounts/user-admin.js';
import { type Clock, daysAgo } from '../clock.js';
import { byText } from './plan/fields.js';
import { withRosterLock } from './roster-lock.js';

/**
 * Leavers are deleted after the retention period (docs/rostering.md → Leavers and retention): their record,
 * credentials, badges and tokens; only the id is kept, so it is never anyone else's `sub`. The running
 * server does it at most once an hour (src/startup/startup.ts), `lanyard roster purge` on demand.
 */

/** The instant before which a hold began is past retention. */
export const retentionCutoff = (clock: Clock, retentionDays: number): string => daysAgo(clock, retentionDays);

export interface PurgeOptions {
  /** Delete leavers whose hold began at or before this instant (ISO 8601). */
  before: string;
  /** Only these organisations' leavers; every organisation's when left out. */
  organisationIds?: readonly string[] | undefined;
  /** List them, delete nothing. */
  dryRun?: boolean | undefined;
  /** How long to wait for a roster import under way. */
  lockWaitMs: number;
}

/** The leavers held since `before` or earlier, of the organisations given (or all), by organisation and username. */
export async function findLeavers(store: Store, before: string, organisationIds?: readonly string[]): Promise<User[]> {
  const orgs = organisationIds && new Set(organisationIds);
  return (await store.leaversBefore(before))
    .filter((u) => u.rosterHold === 'left' && (!orgs || orgs.has(u.organisationId)))
    .sort((a, b) => byText(a.organisationId, b.organisationId) || byText(a.username, b.username));
}

/** Deletes users (the caller holds the roster lock and found them with findLeavers). */
export async function deleteLeavers(store: Store, clock: Clock, leavers: readonly User[]): Promise<void> {
  for (const u of leavers) await deleteUser(store, clock, u);
}

/** Deletes (or with dryRun lists) the leavers held since `before` or earlier; resolves them. */
export async function purgeLeavers(store: Store, clock: Clock, o: PurgeOptions): Promise<User[]> {
  if (o.dryRun) return findLeavers(store, o.before, o.organisationIds);
  return withRosterLock(store, o.lockWaitMs, async () => {
    const leavers = await findLeavers(store, o.before, o.organisationIds); // inside the lock: an import may have let someone back
    await deleteLeavers(store, clock, leavers);
    return leavers;
  });
}
