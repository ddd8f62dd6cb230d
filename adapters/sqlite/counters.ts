import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Counter, Counters, Locks } from '../store.js';
import type { WriteBatch } from './write-batch.js';

/**
 * Login counters, rate limits and locks in SQLite. Writes are committed in batches (write-batch.ts: every
 * request counts against a rate limit), each in the batch's transaction, which holds the write lock from its
 * start (BEGIN IMMEDIATE), so that a hit's read-then-write sees no other process's hit in between.
 */
export function sqliteCounters(db: Database.Database, now: () => number, batch: WriteBatch): Counters & Locks & { sweep(): number } {
  const q = {
    // One statement: a new window when the old one is over, else one more hit in it.
    hit: db.prepare(`INSERT INTO counters (key, count, last_at, expires_at) VALUES (@key, 1, @now, @expires)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN expires_at <= @now THEN 1 ELSE count + 1 END,
        expires_at = CASE WHEN expires_at <= @now THEN @expires ELSE expires_at END,
        last_at = @now
      RETURNING count, last_at AS lastAt, expires_at AS expiresAt`),
    release: db.prepare(`UPDATE counters SET count = max(count - 1, 0), last_at = coalesce(?, last_at)
      WHERE key = ? AND expires_at > ?`),
    peek: db.prepare('SELECT count, last_at AS lastAt, expires_at AS expiresAt FROM counters WHERE key = ? AND expires_at > ?'),
    clear: db.prepare('DELETE FROM counters WHERE key = ?'),
    sweep: db.prepare('DELETE FROM counters WHERE expires_at <= ?'),
    // Taken when free or when the holder's time is up.
    lock: db.prepare(`INSERT INTO locks (key, token, expires_at) VALUES (@key, @token, @expires)
      ON CONFLICT (key) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
      WHERE locks.expires_at <= @now`),
    unlock: db.prepare('DELETE FROM locks WHERE key = ? AND token = ?'),
    sweepLocks: db.prepare('DELETE FROM locks WHERE expires_at <= ?'),
  };
  // The previous hit is read and this one counted in one transaction: concurrent hits see distinct counts.
  const hit = (key: string, t: number, expires: number): Counter => {
    const before = q.peek.get(key, t) as Counter | undefined;
    const after = q.hit.get({ key, now: t, expires }) as Counter;
    return { ...after, previousAt: before?.lastAt };
  };

  return {
    async hitCounter(key, windowSeconds) {
      const t = now();
      return batch.write(() => hit(key, t, t + windowSeconds * 1000));
    },
    async releaseCounter(key, lastAt) { const t = now(); await batch.write(() => q.release.run(lastAt ?? null, key, t)); },
    async peekCounter(key) { return q.peek.get(key, now()) as Counter | undefined; },
    async clearCounter(key) { await batch.write(() => q.clear.run(key)); },
    async tryLock(key, ttlMs) {
      const token = randomBytes(12).toString('base64url');
      const t = now();
      return batch.write(() => q.lock.run({ key, token, now: t, expires: t + ttlMs }).changes === 1 ? token : undefined);
    },
    async unlock(key, token) { await batch.write(() => q.unlock.run(key, token)); },
    sweep: () => q.sweep.run(now()).changes + q.sweepLocks.run(now()).changes,
  };
}
