import type { Test } from 'tap';
import type { Store, StoredKey } from '../../adapters/store.js';
import { type Clock, ManualClock } from '../../src/clock.js';

/**
 * The storage contract's shared parts (DESIGN.md → Storage): every backend runs the per-domain suites in
 * this folder unchanged, against a real backend (a SQLite file, a real redis-server). Time is a ManualClock
 * handed to `open`, so lifetimes are decided by the injected clock, never by wall time.
 */
export interface OpenedStore {
  store: Store;
  /**
   * Opens another Store on the SAME data with the given clock. The suite calls it both while `store` is
   * still open (two instances on one store) and after closing it (a restart: nothing may be lost).
   * Leave it out for a store without a durable location (sqlite::memory:): those tests then say so.
   */
  reopen?: (clock: Clock) => Promise<Store>;
  /** Removes the data (file, database). Called once every store opened on it has been closed. */
  cleanup(): Promise<void>;
}

/** Opens a fresh, empty store on a new location. */
export type OpenStore = (clock: Clock) => Promise<OpenedStore>;

export interface FreshStore {
  clock: ManualClock;
  store: Store;
  reopen: ((clock?: Clock) => Promise<Store>) | undefined;
}

/** A fresh store on a fresh location, closed and removed when the test ends. */
export type Fresh = (t: Test) => Promise<FreshStore>;

export const START = new Date('2027-01-15T12:00:00.000Z');
export const SECOND = 1000;

export function freshStores(open: OpenStore): Fresh {
  return async (t) => {
    const clock = new ManualClock(START);
    const opened = await open(clock);
    const stores = [opened.store];
    t.teardown(async () => {
      for (const s of stores) await s.close();
      await opened.cleanup();
    });
    const reopen = opened.reopen
      ? async (c: Clock = clock) => {
          const s = await opened.reopen!(c);
          stores.push(s);
          return s;
        }
      : undefined;
    return { clock, store: opened.store, reopen };
  };
}

export function storedKey(month: string, kid: string): StoredKey {
  return {
    kid,
    month,
    notBefore: `${month}-01T00:00:00.000Z`,
    notAfter: `${month}-28T23:59:59.000Z`,
    certificate: `cert-${kid}`,
    encryptedPrivateKey: `v1.iv.tag.${kid}`,
    createdAt: START.toISOString(),
  };
}

export const orgAndUser = async (store: Store) => {
  const org = await store.upsertOrganisation({ slug: 'north-school', name: 'North School' });
  const user = await store.upsertUser({
    organisationId: org.id, username: 'teacher', givenName: 'Tess', familyName: 'Teacher', type: 'employee',
  });
  return { org, user };
};
