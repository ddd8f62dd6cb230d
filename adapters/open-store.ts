import type { Clock } from '../src/clock.js';
import { LanyardError } from '../src/errors.js';
import { guardStore } from './guarded-store.js';
import { openRedisStore, type RedisPersistence } from './redis.js';
import { ENV_DEFAULTS } from '../src/config/defaults.js';
import { parseRedisUrl, redactUrl } from '../src/config/store-url.js';
import { openSqliteStore } from './sqlite.js';
import type { Store } from './store.js';

/**
 * Opens the backend named by a store URL: `sqlite:./data/lanyard.db` (embedded default), `sqlite::memory:`,
 * `redis://[user:password@]host:port[/db]`, `rediss://…` (TLS), or
 * `redis-sentinel://[user:password@]host:port[,host:port…]/master-name[/db]`. `prefix` namespaces Redis keys.
 * Every error a backend throws while serving reaches callers as StoreUnavailableError (guarded-store.ts).
 */
export interface OpenStoreOptions {
  redisPrefix?: string;
  /** Told once how a Redis server persists its data, for the startup log. */
  onRedisConnect?: (persistence: RedisPersistence) => void;
  /** SQLite: false when another process on this machine checkpoints the file, or this one is a short command (adapters/sqlite.ts). */
  checkpointThread?: boolean;
}

export async function openStore(url: string, clock: Clock, options: OpenStoreOptions = {}): Promise<Store> {
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (!path) throw new LanyardError('config_invalid', `LANYARD_STORE "${url}": sqlite: needs a file path`);
    return guardStore(openSqliteStore(path, clock, options.checkpointThread === false ? { checkpointThread: false } : {}));
  }
  if (/^(redis|rediss|redis-sentinel):\/\//.test(url)) {
    return guardStore(await openRedisStore(parseRedisUrl(url), clock, options.redisPrefix ?? ENV_DEFAULTS.redisPrefix, options.onRedisConnect));
  }
  throw new LanyardError('config_invalid', `LANYARD_STORE "${redactUrl(url)}": unsupported store; use sqlite:<path>, redis://host:port or redis-sentinel://host:port/master`);
}


/** Whether a store URL names a file on this machine (its data directory can hold the key-encryption key). */
export function storeDataDir(url: string): string | undefined {
  if (!url.startsWith('sqlite:') || url === 'sqlite::memory:') return undefined;
  const path = url.slice('sqlite:'.length);
  const i = path.lastIndexOf('/');
  return i === -1 ? '.' : path.slice(0, i) || '/';
}

/** Opens the store for one command (no SQLite checkpoint thread: the server's, or closing, does it) and always closes it. */
export async function withStore<T>(url: string, clock: Clock, work: (store: Store) => Promise<T>, options: OpenStoreOptions = {}): Promise<T> {
  const store = await openStore(url, clock, { ...options, checkpointThread: options.checkpointThread ?? false });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
