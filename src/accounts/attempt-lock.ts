import type { Locks } from '../../adapters/store.js';
import { takeStoreLock } from './store-lock.js';

/**
 * The lock held while one sign-in attempt on a bucket is checked, verified and recorded. Its lifetime bounds
 * how long a crashed instance can hold it; the wait bounds how long an attempt queues before failing closed.
 */
const LOCK = { ttlMs: 15_000, waitMs: 10_000 };

/**
 * Attempts on one bucket take turns: a queue in this process (so local waiters go in order) in front of a
 * lock in the store (so other instances' attempts wait too).
 */
export class AttemptLocks {
  /** Buckets with an attempt under way in this process: the tail of each bucket's queue. */
  readonly #tails = new Map<string, Promise<void>>();

  constructor(private readonly locks: Locks) {}

  /**
   * Waits for the attempts on `key` under way in this process, then takes the store's lock on it, and holds
   * both until the returned function runs. Fails closed (503) when the lock cannot be had in LOCK.waitMs.
   */
  async acquire(key: string): Promise<() => void> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let unlockLocal!: () => void;
    const mine = new Promise<void>((resolve) => { unlockLocal = resolve; });
    const chained = previous.then(() => mine);
    this.#tails.set(key, chained);
    const releaseLocal = () => {
      unlockLocal();
      if (this.#tails.get(key) === chained) this.#tails.delete(key);
    };
    await previous;
    let token: string | undefined;
    try {
      token = await takeStoreLock(this.locks, `attempt:${key}`, LOCK);
    } catch (err) {
      releaseLocal();
      throw err;
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // Released in the background: the next local waiter retries the store lock until it is free.
      this.locks.unlock(`attempt:${key}`, token).catch(() => {}).finally(releaseLocal);
    };
  }
}
