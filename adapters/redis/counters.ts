import { randomBytes } from 'node:crypto';
import type { Counter, Counters, Locks } from '../store.js';
import { nativeTtlMs, type RedisContext } from './context.js';
import { defineScript, execPipeline } from './scripts.js';
import { scanKeys } from './scan.js';
import type { EntryIO } from './transfer.js';

// KEYS: counter. ARGV: now, end of a new window, its native ttl. A new window when there is none or it is
// over, else one more hit in it. Returns count, lastAt, expiresAt and, within a window, the hit before.
const HIT = `
local v = redis.call('HMGET', KEYS[1], 'count', 'lastAt', 'expiresAt')
if v[1] and tonumber(v[3]) > tonumber(ARGV[1]) then
  local count = tostring(tonumber(v[1]) + 1)
  redis.call('HSET', KEYS[1], 'count', count, 'lastAt', ARGV[1])
  return {count, ARGV[1], v[3], v[2]}
end
redis.call('HSET', KEYS[1], 'count', '1', 'lastAt', ARGV[1], 'expiresAt', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {'1', ARGV[1], ARGV[2]}`;

// KEYS: counter. ARGV: now, lastAt to restore ('' keeps it). One hit back, never below zero.
const RELEASE = `
local v = redis.call('HMGET', KEYS[1], 'count', 'expiresAt')
if not v[1] or tonumber(v[2]) <= tonumber(ARGV[1]) then return 0 end
local count = tostring(math.max(tonumber(v[1]) - 1, 0))
if ARGV[2] == '' then redis.call('HSET', KEYS[1], 'count', count)
else redis.call('HSET', KEYS[1], 'count', count, 'lastAt', ARGV[2]) end
return 1`;

// KEYS: lock. ARGV: now, token, expiresAt, native ttl. Taken when free or when the holder's time is up.
const TRY_LOCK = `
local e = redis.call('HGET', KEYS[1], 'expiresAt')
if e and tonumber(e) > tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'token', ARGV[2], 'expiresAt', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

// KEYS: lock. ARGV: token. Only its holder releases it.
const UNLOCK = `
if redis.call('HGET', KEYS[1], 'token') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// KEYS: a counter or a lock. ARGV: now. 1 when it was over on the clock and is now removed.
const DELETE_IF_EXPIRED = `
local e = redis.call('HGET', KEYS[1], 'expiresAt')
if e and tonumber(e) <= tonumber(ARGV[1]) then return redis.call('DEL', KEYS[1]) end
return 0`;

// KEYS: counter. ARGV: count, lastAt, expiresAt, native ttl.
const IMPORT = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'count', ARGV[1], 'lastAt', ARGV[2], 'expiresAt', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

/** Login counters and locks in Redis: one expiring hash each, every change a script. */
export function redisCounters({ client, keys, now }: RedisContext) {
  const hit = defineScript(client, 'lanyardHitCounter', HIT);
  const release = defineScript(client, 'lanyardReleaseCounter', RELEASE);
  const tryLock = defineScript(client, 'lanyardTryLock', TRY_LOCK);
  const unlock = defineScript(client, 'lanyardUnlock', UNLOCK);
  const deleteIfExpired = defineScript(client, 'lanyardDeleteIfExpired', DELETE_IF_EXPIRED);
  const importCounter = defineScript(client, 'lanyardImportCounter', IMPORT);

  const toCounter = ([count, lastAt, expiresAt]: (string | null)[], t: number): Counter | undefined =>
    count !== null && count !== undefined && Number(expiresAt) > t
      ? { count: Number(count), lastAt: Number(lastAt), expiresAt: Number(expiresAt) }
      : undefined;

  const counters: Counters & Locks = {
    async hitCounter(key, windowSeconds) {
      const t = now();
      const expires = t + windowSeconds * 1000;
      const [count, lastAt, expiresAt, previousAt] = (await hit([keys.counter(key)], [t, expires, nativeTtlMs(expires, t)])) as string[];
      return {
        count: Number(count), lastAt: Number(lastAt), expiresAt: Number(expiresAt),
        previousAt: previousAt === undefined ? undefined : Number(previousAt),
      };
    },
    async peekCounter(key) { return toCounter(await client.hmget(keys.counter(key), 'count', 'lastAt', 'expiresAt'), now()); },
    async releaseCounter(key, lastAt) { await release([keys.counter(key)], [now(), lastAt === undefined ? '' : lastAt]); },
    async clearCounter(key) { await client.del(keys.counter(key)); },
    async tryLock(key, ttlMs) {
      const token = randomBytes(12).toString('base64url');
      const t = now();
      const taken = await tryLock([keys.lock(key)], [t, token, t + ttlMs, nativeTtlMs(t + ttlMs, t)]);
      return taken === 1 ? token : undefined;
    },
    async unlock(key, token) { await unlock([keys.lock(key)], [token]); },
  };

  /** Removes the counters and locks among `found` whose time is up on the clock; returns how many. */
  async function sweepKeys(found: string[]): Promise<number> {
    if (!found.length) return 0;
    const t = now();
    const read = client.pipeline();
    for (const key of found) read.hget(key, 'expiresAt');
    const expiry = await execPipeline(read);
    const expired = found.filter((_, i) => expiry[i] !== null && Number(expiry[i]) <= t);
    if (!expired.length) return 0;
    const del = client.pipeline();
    for (const key of expired) deleteIfExpired.queue(del, [key], [t]);
    return (await execPipeline(del)).reduce<number>((n, r) => n + Number(r), 0);
  }

  const entries: EntryIO<'counter'> = {
    async *read() {
      for await (const batch of scanKeys(client, keys.match.counters, true)) {
        const t = now();
        const read = client.pipeline();
        for (const key of batch) read.hmget(key, 'count', 'lastAt', 'expiresAt');
        const rows = (await execPipeline(read)) as (string | null)[][];
        for (const [i, key] of batch.entries()) {
          const parsed = keys.parse(key);
          const counter = toCounter(rows[i]!, t);
          if (parsed?.kind === 'counter' && counter) yield { key: parsed.name, ...counter };
        }
      }
    },
    async write({ key, count, lastAt, expiresAt }) {
      const t = now();
      if (expiresAt > t) await importCounter([keys.counter(key)], [count, lastAt, expiresAt, nativeTtlMs(expiresAt, t)]);
    },
  };

  return { counters, sweepKeys, entries };
}
