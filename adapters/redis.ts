import type { Clock } from '../src/clock.js';
import type { RedisTarget } from './redis/url.js';
import type { Store } from './store.js';

/** Placeholder until the Redis backend lands (adapters/redis/). */
export async function openRedisStore(_target: RedisTarget, _clock: Clock, _prefix: string): Promise<Store> {
  throw new Error('the Redis store is not built yet');
}
