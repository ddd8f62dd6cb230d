import type { RedisContext } from './context.js';
import type { Owner } from './oidc-records.js';
import { scanKeys } from './scan.js';

export interface Sweepers {
  /** Removes the expired ones among these records; returns how many it removed. */
  records(found: { model: string; id: string }[]): Promise<number>;
  /** Drops a model's uid or user-code index entries that lead nowhere. */
  indexes(model: string, field: 'uid' | 'userCode'): Promise<void>;
  /** Drops a grant's or an account's members whose record is gone or expired. */
  owner(owner: Owner): Promise<void>;
  /** Removes the expired ones among these counter and lock keys; returns how many it removed. */
  expiring(found: string[]): Promise<number>;
}

/**
 * Removes what is expired on the clock and Redis has not expired itself yet (the clocks differ, or time is
 * injected): oidc records, counters, locks, and index, grant and account entries of records that are gone.
 * One SCAN pass over the prefix; every removal checks again atomically (a script), so all instances may
 * sweep at once and each removal is counted by the one that did it.
 */
export async function sweepExpired({ client, keys }: RedisContext, sweep: Sweepers): Promise<number> {
  let removed = 0;
  for await (const batch of scanKeys(client, keys.match.all)) {
    const records: { model: string; id: string }[] = [];
    const expiring: string[] = [];
    for (const key of batch) {
      const parsed = keys.parse(key);
      if (parsed?.kind === 'record') records.push(parsed);
      else if (parsed?.kind === 'counter' || parsed?.kind === 'lock') expiring.push(key);
      else if (parsed?.kind === 'index') await sweep.indexes(parsed.model, parsed.field);
      else if (parsed?.kind === 'grant') await sweep.owner({ field: 'grantId', id: parsed.grantId });
      else if (parsed?.kind === 'account') await sweep.owner({ field: 'accountId', id: parsed.accountId });
    }
    removed += (await sweep.records(records)) + (await sweep.expiring(expiring));
  }
  return removed;
}
