import { Redis, type RedisOptions } from 'ioredis';
import { LanyardError } from '../../src/errors.js';
import type { RedisTarget } from '../../src/config/store-url.js';

/** How long opening the store waits for Redis before it gives up with a clear error. */
const CONNECT_TIMEOUT_MS = 5000;
/** Reconnection backoff: 100 ms more per attempt, at most this, forever. */
const MAX_BACKOFF_MS = 2000;
/** How long close() waits for QUIT's answer before it cuts the connection. */
const QUIT_TIMEOUT_MS = 1000;

const backoff = (attempt: number) => Math.min(attempt * 100, MAX_BACKOFF_MS);

/** Where the target is, for messages: never the password. */
export const describeTarget = (t: RedisTarget): string =>
  t.sentinels
    ? `Sentinel ${t.sentinels.map((s) => `${s.host}:${s.port}`).join(',')} (primary "${t.masterName}")`
    : `${t.tls ? 'rediss' : 'redis'}://${t.host}:${t.port}`;

const COMMAND_TIMEOUT_MS = 5_000;

/**
 * A command fails at once while Redis is unreachable (no offline queue, one retry), so a request gets its
 * 503 instead of waiting; the client reconnects by itself, forever, with a capped backoff.
 */
export function redisOptions(target: RedisTarget): RedisOptions {
  const common: RedisOptions = {
    username: target.username,
    password: target.password,
    db: target.db,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    enableReadyCheck: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // A Redis that stops answering without closing the connection (a network partition) must give a 503
    // in seconds, not hold requests until TCP gives up. Every Lanyard command is a single short step.
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: backoff,
    // After a failover the old primary answers READONLY until Sentinel's news arrives: reconnect at once.
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
  };
  if (target.sentinels) {
    return {
      ...common,
      sentinels: target.sentinels,
      name: target.masterName,
      ...(target.password ? { sentinelPassword: target.password } : {}),
      sentinelRetryStrategy: backoff,
    };
  }
  return { ...common, host: target.host, port: target.port, ...(target.tls ? { tls: {} } : {}) };
}

/** Connects, or fails within ~5 s with an error that says where and why. */
export async function connectRedis(target: RedisTarget): Promise<Redis> {
  const client = new Redis(redisOptions(target));
  let lastError: Error | undefined;
  // Without a listener ioredis reports every failed reconnection as unhandled; commands carry the errors.
  client.on('error', (err: Error) => { lastError = err; });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS); }),
    ]);
  } catch (err) {
    client.disconnect();
    const reason = lastError?.message ?? (err as Error).message;
    throw new LanyardError('store_unreachable', `cannot reach Redis at ${describeTarget(target)}: ${reason}`);
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/** Waits for QUIT when Redis answers, else cuts the connection; either way no reconnection follows. */
export async function closeRedis(client: Redis): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([client.quit(), new Promise((resolve) => { timer = setTimeout(resolve, QUIT_TIMEOUT_MS); })]);
  } catch {
    // Not connected: nothing to wait for.
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}
