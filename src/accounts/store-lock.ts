import type { Locks } from '../../adapters/store.js';
import { StoreUnavailableError } from '../errors.js';

const POLL_MS = [2, 5, 10, 20, 40];

/**
 * Takes the store's lock `key` (held at most `ttlMs`, so a crashed holder cannot keep it), retrying while
 * another instance holds it; fails closed (503) when it cannot be had within `waitMs` of wall time
 * (a real wait, whatever the injected clock says). Resolves the token that releases it.
 */
export async function takeStoreLock(locks: Locks, key: string, o: { ttlMs: number; waitMs: number }): Promise<string> {
  const deadline = Date.now() + o.waitMs;
  for (let i = 0; ; i += 1) {
    const token = await locks.tryLock(key, o.ttlMs);
    if (token) return token;
    if (Date.now() >= deadline) throw new StoreUnavailableError(new Error(`lock ${key} busy for ${o.waitMs} ms`));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS[Math.min(i, POLL_MS.length - 1)]));
  }
}

/** Runs `work` while holding the store's lock `key`. */
export async function withStoreLock<T>(locks: Locks, key: string, o: { ttlMs: number; waitMs: number }, work: () => Promise<T>): Promise<T> {
  const token = await takeStoreLock(locks, key, o);
  try {
    return await work();
  } finally {
    await locks.unlock(key, token);
  }
}
