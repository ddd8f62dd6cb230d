import type { Redis } from 'ioredis';
import type { KeyLayout } from './key-layout.js';

/** What every domain module of the Redis store works with. */
export interface RedisContext {
  client: Redis;
  keys: KeyLayout;
  /** Epoch milliseconds on the injected clock: every lifetime is decided by it, never by Redis TIME. */
  now(): number;
}

/**
 * Redis's own expiry for a value that ends at `expiresAt` on the clock: only there to free memory (the
 * clock decides), and at least 1 ms because PX must be positive.
 */
export const nativeTtlMs = (expiresAt: number, now: number): number => Math.max(1, Math.ceil(expiresAt - now));
