import type { Locks } from '../../adapters/store.js';
import { takeStoreLock } from '../accounts/store-lock.js';
import { LanyardError, StoreUnavailableError } from '../errors.js';

/**
 * One roster change at a time across every instance and command sharing the store: an import's apply, and
 * the deletion of leavers (docs/rostering.md → Nightly sync). Another waits up to `waitMs`, then is refused.
 * The lock outlives a holder that crashed by at most LOCK_TTL_MS.
 */

export const ROSTER_LOCK = 'roster-import';
/** Longer than the largest import takes to apply (a district of 50,000 people: about a minute). */
const LOCK_TTL_MS = 15 * 60_000;
/** How long an import waits for another by default. */
export const ROSTER_LOCK_WAIT_MS = 60_000;

/** Another roster import (or purge) held the lock for longer than this one would wait. */
export class RosterBusyError extends LanyardError {
  constructor(waitedMs: number) {
    super('roster_busy', `another roster import is running (waited ${Math.round(waitedMs / 1000)} s): try again when it has finished`, 409, true);
    this.name = 'RosterBusyError';
  }
}

/** Runs `work` holding the roster lock; RosterBusyError when it is not had within `waitMs`. */
export async function withRosterLock<T>(locks: Locks, waitMs: number, work: () => Promise<T>): Promise<T> {
  let token: string;
  try {
    token = await takeStoreLock(locks, ROSTER_LOCK, { ttlMs: LOCK_TTL_MS, waitMs });
  } catch (err) {
    // takeStoreLock says a busy lock as a store failure (503); here it is another import at work.
    if (err instanceof StoreUnavailableError && /busy/.test(String((err.cause as Error | undefined)?.message))) throw new RosterBusyError(waitMs);
    throw err;
  }
  try {
    return await work();
  } finally {
    await locks.unlock(ROSTER_LOCK, token);
  }
}
