import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Counters } from '../../adapters/store.js';
import type { Clock } from '../clock.js';

/** Called once per window and key, on the first request over the budget (for one log line, not thousands). */
export type OnLimitReached = (key: string, max: number) => void;

/** Counter keys of the rate limits, apart from the login throttle's (src/accounts/login-throttle.ts). */
export const RATE_LIMIT_KEY_PREFIX = 'rate:';

/**
 * @fastify/rate-limit's store contract over Lanyard's Store counters (adapters/store/counters.ts), so a
 * budget is one atomic counter shared by every instance on the store, SQLite or Redis, never a count in
 * one process. A fixed window: it starts at the first request and lasts `timeWindow`; the count starts
 * again after it. Failures are not caught: the store's StoreUnavailableError reaches the limiter, which
 * answers 503 (never a silent "let everything through").
 */
export function storeCounters(counters: Counters, clock: Clock, onLimitReached: OnLimitReached): FastifyRateLimitStoreCtor {
  class StoreCounters implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void {
      const windowSeconds = Math.max(1, Math.ceil(timeWindow / 1000));
      counters.hitCounter(`${RATE_LIMIT_KEY_PREFIX}${key}`, windowSeconds).then((counter) => {
        if (counter.count === max + 1) onLimitReached(key, max);
        callback(null, { current: counter.count, ttl: Math.max(0, counter.expiresAt - clock.now().getTime()) });
      }, (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    }

    child(): FastifyRateLimitStore {
      return new StoreCounters();
    }
  }
  return StoreCounters;
}
