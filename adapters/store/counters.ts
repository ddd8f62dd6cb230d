/**
 * Login-attempt counters and per-account locks (src/accounts/login-throttle.ts). They live in the store,
 * never in a process, so every instance counts and orders attempts the same way (docs/storage.md).
 * Every lifetime is measured on the injected clock.
 */

/** A login counter: failures in a window and when the last one was. */
export interface Counter {
  count: number;
  /** Epoch milliseconds of the last hit. */
  lastAt: number;
  /** Epoch milliseconds at which the window ends (and the count starts again). */
  expiresAt: number;
  /** From hitCounter only: when the hit before this one was, in this window (undefined for the first). */
  previousAt?: number | undefined;
}

export interface Counters {
  /**
   * Atomically counts one hit on `key`. The window starts at the first hit and lasts `windowSeconds`;
   * after it the count starts again from 1.
   */
  hitCounter(key: string, windowSeconds: number): Promise<Counter>;
  /** The counter within its window, or undefined. */
  peekCounter(key: string): Promise<Counter | undefined>;
  /**
   * Takes one hit back (never below zero), e.g. an attempt counted in advance that was refused or succeeded;
   * `lastAt`, when given, restores the time of the hit before it.
   */
  releaseCounter(key: string, lastAt?: number): Promise<void>;
  clearCounter(key: string): Promise<void>;
}

export interface Locks {
  /**
   * Takes the lock `key` for at most `ttlMs` (so a crashed holder cannot hold it forever), atomically:
   * resolves a token for the one caller that got it, undefined while another holds it. Never waits.
   */
  tryLock(key: string, ttlMs: number): Promise<string | undefined>;
  /** Releases the lock if `token` still holds it (an expired and retaken lock is left alone). */
  unlock(key: string, token: string): Promise<void>;
}
