import { LanyardError } from '../errors.js';

/** Where a Redis store is: one server, or the primary that Sentinel names (docs/storage.md → Redis). */
export interface RedisTarget {
  /** One server (`redis://`, `rediss://`); absent with Sentinel. */
  host?: string;
  port?: number;
  /** Sentinel servers and the name of the monitored primary (`redis-sentinel://`). */
  sentinels?: { host: string; port: number }[];
  masterName?: string;
  username?: string | undefined;
  password?: string | undefined;
  db: number;
  tls: boolean;
}

/**
 * What is wrong with a Redis key prefix, or undefined: nothing that would change a hash tag or a SCAN
 * pattern. The one rule for LANYARD_REDIS_PREFIX, the backend and `lanyard store copy`'s options.
 */
export function redisPrefixProblem(prefix: string): string | undefined {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(prefix) ? undefined : `"${prefix}" must be 1-64 letters, digits, '.', '_' or '-'`;
}

/**
 * A store URL fit for a log line or an error message: everything up to the last `@` is credentials (an
 * unencoded `/` or `@` in a password must not slip past), shown as `user:***` or `***`.
 */
export function redactUrl(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^]*)@/i.exec(url);
  if (!m) return url;
  const user = /^([^:/@]*):/.exec(m[2]!)?.[1];
  return `${m[1]}${user !== undefined ? `${user}:***` : '***'}@${url.slice(m[0].length)}`;
}

const fail = (url: string, problem: string) =>
  new LanyardError('config_invalid', `LANYARD_STORE "${redactUrl(url)}": ${problem}`);

function hostPort(url: string, text: string, defaultPort: number): { host: string; port: number } {
  const m = /^(\[[0-9a-fA-F:]+\]|[^:[\]@/]+)(?::(\d{1,5}))?$/.exec(text);
  const port = m?.[2] ? Number(m[2]) : defaultPort;
  // The text is not repeated: with an unencoded '@' in a password it would hold part of the password.
  if (!m || port < 1 || port > 65535) throw fail(url, 'the address is not host:port (percent-encode any @, / or : in the password)');
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

/**
 * `redis://[user:password@]host[:port][/db]`, `rediss://…` (TLS) and
 * `redis-sentinel://[user:password@]host[:port][,host[:port]…]/master-name[/db]` (Sentinel's port defaults
 * to 26379). The password authenticates to Redis (and to Sentinel, when Sentinel asks for one).
 */
export function parseRedisUrl(url: string): RedisTarget {
  const m = /^(redis|rediss|redis-sentinel):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/]+)(?:\/(.*))?$/.exec(url);
  if (!m) throw fail(url, 'not a redis://host:port, rediss://host:port or redis-sentinel://host:port/master URL');
  const [, scheme, user, password, hosts, rest = ''] = m;
  if (`${hosts}/${rest}`.includes('@')) throw fail(url, 'an @ after the credentials: percent-encode any @, / or : in the password');
  const decode = (s: string | undefined) => (s ? decodeURIComponent(s) : undefined);
  const parts = rest.split('/').filter(Boolean);
  const dbText = scheme === 'redis-sentinel' ? parts[1] : parts[0];
  const db = dbText === undefined ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0 || db > 15) throw fail(url, 'the database must be a number from 0 to 15');
  const auth = { username: decode(user), password: decode(password), db };
  if (scheme === 'redis-sentinel') {
    if (!parts[0]) throw fail(url, 'redis-sentinel:// needs the primary\'s name: redis-sentinel://host:26379/mymaster');
    const sentinels = hosts!.split(',').map((h) => hostPort(url, h, 26379));
    return { sentinels, masterName: decodeURIComponent(parts[0]), ...auth, tls: false };
  }
  if (parts.length > 1) throw fail(url, 'only a database number may follow the host');
  return { ...hostPort(url, hosts!, 6379), ...auth, tls: scheme === 'rediss' };
}
