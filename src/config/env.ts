import { ENV_DEFAULTS } from './defaults.js';
import { LanyardError } from '../errors.js';
import { parseRedisUrl, redisPrefixProblem } from './store-url.js';

/**
 * The deployment settings in the environment, one parser a variable: each returns the value (or its default,
 * src/config/defaults.ts) and adds a problem naming the variable when the value is wrong, so that every
 * problem is reported at once (src/config/config.ts). Nothing here reads process.env: config.ts hands it over.
 */

export type Env = Record<string, string | undefined>;

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The most processes LANYARD_WORKERS may ask for. */
const MAX_WORKERS = 64;

export function parsePort(value: string | undefined, problems: string[]): number {
  if (value === undefined || value === '') return ENV_DEFAULTS.port;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT: "${value}" is not a port number (0-65535)`);
  return port;
}

export function parseIssuer(value: string, problems: string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`LANYARD_ISSUER: "${value}" is not a URL`);
    return value;
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    problems.push(`LANYARD_ISSUER: "${value}" must be an http(s) URL without query or fragment`);
  }
  // Routes are served from the root (/oauth/…, /.well-known/…): an issuer with a path would advertise
  // endpoints that do not exist.
  if (url.pathname !== '/' && url.pathname !== '') {
    problems.push(`LANYARD_ISSUER: "${value}" must not have a path (Lanyard serves its endpoints at the root of its host)`);
  }
  return value.replace(/\/+$/, '');
}

export function parseLogLevel(value: string | undefined, problems: string[]): string {
  const level = value || ENV_DEFAULTS.logLevel;
  if (!LOG_LEVELS.includes(level)) problems.push(`LANYARD_LOG_LEVEL: "${level}" is not a pino level`);
  return level;
}

export function parseCookieKeys(value: string | undefined, problems: string[]): string[] | undefined {
  if (!value) return undefined;
  const keys = value.split(',').map((k) => k.trim()).filter(Boolean);
  if (!keys.length || keys.some((k) => k.length < 32)) {
    problems.push('LANYARD_COOKIE_KEYS: each comma-separated key must be at least 32 characters');
  }
  return keys;
}

/** `true`/`yes` = one proxy; a number = that many proxies in a chain; unset/`false`/`no`/`0` = none. */
export function parseTrustProxy(value: string | undefined, problems: string[]): number {
  const v = (value ?? '').trim().toLowerCase();
  if (['', 'false', 'no', '0'].includes(v)) return ENV_DEFAULTS.trustProxy;
  if (['true', 'yes'].includes(v)) return 1;
  const hops = Number(v);
  if (!Number.isInteger(hops) || hops < 1 || hops > 10) {
    problems.push(`LANYARD_TRUST_PROXY: "${value}" must be true, false or the number of proxies in front of Lanyard (1-10)`);
    return ENV_DEFAULTS.trustProxy;
  }
  return hops;
}

export function parseKek(value: string | undefined, problems: string[]): Buffer | undefined {
  if (!value) return undefined;
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) problems.push('LANYARD_KEY_ENCRYPTION_KEY: must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
}

export function parseLogFormat(value: string | undefined, problems: string[]): LogFormat | undefined {
  if (!value) return undefined;
  if ((LOG_FORMATS as readonly string[]).includes(value)) return value as LogFormat;
  problems.push(`LANYARD_LOG_FORMAT: "${value}" must be json or pretty (unset: pretty on a terminal, JSON otherwise)`);
  return undefined;
}

/** LANYARD_WORKERS: a number of processes (1–64) or `auto` (one per core); unset, src/config/defaults.ts decides. */
export function parseWorkers(value: string | undefined, o: { defaultWorkers: number; cores: number; storeUrl: string }, problems: string[]): number {
  let workers: number;
  if (value === undefined || value === '') workers = o.defaultWorkers;
  else if (value === 'auto') workers = o.cores;
  else if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_WORKERS) workers = Number(value);
  else {
    problems.push(`LANYARD_WORKERS: "${value}" must be a number of processes from 1 to ${MAX_WORKERS}, or auto (one per core: ${o.cores} here)`);
    return 1;
  }
  // Each process would have its own empty in-memory database: sign-ins, codes and keys would not be shared.
  if (workers > 1 && o.storeUrl === 'sqlite::memory:') {
    problems.push(`LANYARD_WORKERS: ${workers} processes cannot share LANYARD_STORE=sqlite::memory: (each would have its own); use a file or Redis, or one worker`);
    return 1;
  }
  return workers;
}

/** Who starts an empty store anew: Lanyard at its first start (`auto`), or only an operator (`operator`). */
export type StoreInit = 'auto' | 'operator';

/**
 * LANYARD_STORE_INIT (docs/storage.md → The store's identity): `auto` (default) makes a store that holds
 * nothing a new one at the first start; `operator` leaves that to `lanyard store init`, so an instance never
 * takes a store emptied while no instance ran (a Redis restarted without its data) for a new one.
 */
export function parseStoreInit(value: string | undefined, problems: string[]): StoreInit {
  const v = value || ENV_DEFAULTS.storeInit;
  if (v === 'auto' || v === 'operator') return v;
  problems.push(`LANYARD_STORE_INIT: "${value}" is not auto or operator (operator: only \`lanyard store init\` starts an empty store anew)`);
  return ENV_DEFAULTS.storeInit;
}

/** LANYARD_REDIS_PREFIX, or the default; for commands that name stores of their own (`lanyard store copy`). */
export const redisPrefixOf = (env: Env): string => env.LANYARD_REDIS_PREFIX || ENV_DEFAULTS.redisPrefix;

/**
 * The store URL, checked: a store that is not a file on this machine is shared by instances elsewhere, and
 * they must all read each other's signing keys, so it needs LANYARD_KEY_ENCRYPTION_KEY (a generated one
 * would exist in one process only).
 */
export function parseStore(env: Env, problems: string[]): { storeUrl: string; redisPrefix: string } {
  const storeUrl = env.LANYARD_STORE || ENV_DEFAULTS.storeUrl;
  const redisPrefix = redisPrefixOf(env);
  const prefixProblem = redisPrefixProblem(redisPrefix);
  if (prefixProblem) problems.push(`LANYARD_REDIS_PREFIX: ${prefixProblem}`);
  if (storeUrl.startsWith('sqlite:')) {
    if (storeUrl === 'sqlite:') problems.push('LANYARD_STORE: "sqlite:" needs a file path, e.g. sqlite:./data/lanyard.db');
  } else {
    try {
      parseRedisUrl(storeUrl);
    } catch (err) {
      problems.push(err instanceof LanyardError ? err.message : String(err));
      return { storeUrl, redisPrefix };
    }
  }
  if (!storeUrl.startsWith('sqlite:') && !env.LANYARD_KEY_ENCRYPTION_KEY) {
    problems.push('LANYARD_KEY_ENCRYPTION_KEY: required with a store that is not a local file, so that every instance can read the signing keys (openssl rand -base64 32; the same value on every instance)');
  }
  return { storeUrl, redisPrefix };
}
