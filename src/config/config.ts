import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import type { LoginMethod } from '../../adapters/store.js';
import { DEFAULT_REDIS_PREFIX, parseRedisUrl, redisPrefixProblem } from './store-url.js';
import { ConfigError, LanyardError } from '../errors.js';
import { type MetricsConfig, parseMetricsConfig } from './metrics.js';
import { demoConfigPath } from '../package-files.js';
import { inspectConfigFile } from './file.js';
import { movedDemoClient, parseDemoAppSetting } from './demo-app.js';

export { appSeedClientId, readConfigFile } from './file.js';

/**
 * Configuration: one JSON file validated against config/schema.json, plus deployment settings from the
 * environment. This is the only module that reads process.env (DESIGN.md → Rules of thumb).
 */

export interface ClientConfig {
  client_id: string;
  name: string;
  secret_hashes?: string[];
  secrets?: string[];
  redirect_uris: string[];
  default_scopes?: string[];
  logout_url?: string;
  /** OpenID Connect Core §4: where a dashboard launch starts the app's own sign-in (README → Dashboard and app launch). */
  initiate_login_uri?: string;
  response_types?: ('code' | 'id_token')[];
}

/** An app a school uses: its client_id, or the client_id and the user types who may use it. */
export type AppSeed = string | { client_id: string; user_types?: string[] };

export interface UserSeed {
  username: string;
  given_name: string;
  family_name: string;
  type: string;
  email?: string;
  google_email?: string;
  microsoft_email?: string;
  roster_id?: string;
  password?: string;
  password_hash?: string;
  emoji_password?: string;
  emoji_password_hash?: string;
  badge_code?: string;
}

export interface OrganisationSeed {
  slug: string;
  name: string;
  login_methods?: LoginMethod[];
  badge_requires_emoji?: boolean;
  users?: UserSeed[];
  /** The apps this school uses, in its dashboard's order (src/dashboard/config-connections.ts). */
  apps?: AppSeed[];
}

export interface ThrottlingConfig {
  free_attempts?: number;
  base_wait_seconds?: number;
  max_wait_seconds?: number;
  new_device_free_attempts?: number;
  new_device_base_wait_seconds?: number;
  new_device_max_wait_seconds?: number;
  new_device_failure_cap?: number;
  device_failures?: number;
  ip_failures?: number;
  /** Accepted for configuration files written for 0.1.0; no longer used. */
  organisation_failures?: number;
  badge_failures?: number;
  window_seconds?: number;
  new_devices_per_ip_per_hour?: number;
}

/** Per-client budgets of anonymous requests (README → Rate limits); defaults in src/http/rate-limit-policy.ts. */
export interface RateLimitsConfig {
  authorize_per_minute?: number;
  authorize_per_hour?: number;
  interaction_pages_per_minute?: number;
}

/** Who may create a developer account (README → Developer area). */
export const DEVELOPER_SIGNUP = ['invite', 'open'] as const;
export type DeveloperSignup = (typeof DEVELOPER_SIGNUP)[number];

export interface ConfigFile {
  development?: boolean;
  service_documentation?: string;
  /** `invite` (default): only `lanyard developers invite EMAIL` creates accounts; `open`: self sign-up at /developer/sign-up. */
  developer_signup?: DeveloperSignup;
  login_throttling?: ThrottlingConfig;
  rate_limits?: RateLimitsConfig;
  clients: ClientConfig[];
  organisations?: OrganisationSeed[];
}

export interface Config {
  production: boolean;
  port: number;
  host: string;
  issuer: string;
  configPath: string;
  /** LANYARD_STORE: `sqlite:<path>` (default `sqlite:./data/lanyard.db`), `redis://…`, `rediss://…`, `redis-sentinel://…`. */
  storeUrl: string;
  /** LANYARD_REDIS_PREFIX: the namespace of Lanyard's keys in Redis, so deployments can share one (default `lanyard`). */
  redisPrefix: string;
  /** From LANYARD_COOKIE_KEYS; when absent, keys are generated once and kept in the store (development only). */
  cookieKeys?: string[] | undefined;
  /** From LANYARD_KEY_ENCRYPTION_KEY; when absent, one is generated into the data directory. */
  keyEncryptionKey?: Buffer | undefined;
  /**
   * How many reverse proxies in front of Lanyard to believe (X-Forwarded-For/-Proto/-Host): 0 = none.
   * Only the last `trustProxy` hops are trusted, so a client cannot choose its own address.
   */
  trustProxy: number;
  logLevel: string;
  /**
   * LANYARD_LOG_FORMAT: `json` (one JSON object per line) or `pretty` (a startup summary, then short lines);
   * unset, the entry point picks pretty on a terminal and JSON otherwise.
   */
  logFormat?: LogFormat | undefined;
  serviceDocumentation: string;
  /** Who may create a developer account: the file's `developer_signup`, default `invite`. */
  developerSignup: DeveloperSignup;
  file: ConfigFile;
  /**
   * Serve the demo relying party beside Lanyard, on its callback's port (8080, or LANYARD_DEMO_APP's port):
   * only with the demo config.
   */
  demoApp: boolean;
  /**
   * LANYARD_WORKERS: how many processes serve requests on this machine, sharing the port and the store
   * (src/cluster/). Default: one per core in production, one otherwise.
   */
  workers: number;
  /** LANYARD_METRICS_TOKEN, LANYARD_METRICS_PORT, LANYARD_METRICS_HOST: where /metrics is served (src/metrics/). */
  metrics: MetricsConfig;
  /** Unsafe development defaults in use; printed loudly at startup. */
  warnings: string[];
}

type Env = Record<string, string | undefined>;

/** LANYARD_STORE unset: a SQLite file under the working directory. */
export const DEFAULT_STORE_URL = 'sqlite:./data/lanyard.db';

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** What NODE_ENV=production refuses in the environment (the file's part: file.ts). */
function productionProblems(config: { issuer: string; cookieKeys?: string[] | undefined }, usingDemo: boolean): string[] {
  const problems: string[] = [];
  if (!config.cookieKeys) problems.push('LANYARD_COOKIE_KEYS: required in production (comma-separated, each at least 32 characters)');
  if (!config.issuer.startsWith('https://')) problems.push(`LANYARD_ISSUER: "${config.issuer}" must be an https URL in production`);
  if (usingDemo) problems.push('LANYARD_CONFIG: is unset, and the demo configuration is development-only');
  return problems;
}

/** A development configuration's passwords are public (the demo's are in the README): it listens on this machine only unless HOST says otherwise. */
const isDevelopment = (file: ConfigFile, usingDemo: boolean) => usingDemo || file.development === true;
const defaultHost = (file: ConfigFile, usingDemo: boolean) => (isDevelopment(file, usingDemo) ? '127.0.0.1' : '0.0.0.0');
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1', 'localhost'];

function developmentWarnings(config: Config, usingDemo: boolean): string[] {
  const warnings: string[] = [];
  if (isDevelopment(config.file, usingDemo)) {
    warnings.push(`DEVELOPMENT CONFIGURATION in use (${config.configPath}): its passwords and secrets are public; never expose it to real users`);
    if (!LOOPBACK_ADDRESSES.includes(config.host)) warnings.push(`HOST=${config.host}: other machines can reach this development configuration and sign in with its public passwords`);
  }
  if (config.file.clients.some((c) => c.secrets?.length)) warnings.push('plaintext client secrets in the configuration: whoever reads the file can act as the app; use secret_hashes (`lanyard clients secret`)');
  if ((config.file.organisations ?? []).some((o) => o.users?.some((u) => u.password || u.emoji_password || u.badge_code))) {
    warnings.push('plaintext user credentials (password, emoji_password or badge_code) in the configuration: whoever reads the file can sign in as those users');
  }
  if (!config.cookieKeys) warnings.push('LANYARD_COOKIE_KEYS unset: cookie signing keys are generated and kept in the store; set your own before going live (production requires them)');
  return warnings;
}

function parsePort(value: string | undefined, problems: string[]): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT: "${value}" is not a port number (0-65535)`);
  return port;
}

function parseIssuer(value: string, problems: string[]): string {
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

function parseCookieKeys(value: string | undefined, problems: string[]): string[] | undefined {
  if (!value) return undefined;
  const keys = value.split(',').map((k) => k.trim()).filter(Boolean);
  if (!keys.length || keys.some((k) => k.length < 32)) {
    problems.push('LANYARD_COOKIE_KEYS: each comma-separated key must be at least 32 characters');
  }
  return keys;
}

/** `true`/`yes` = one proxy; a number = that many proxies in a chain; unset/`false`/`no`/`0` = none. */
function parseTrustProxy(value: string | undefined, problems: string[]): number {
  const v = (value ?? '').trim().toLowerCase();
  if (['', 'false', 'no', '0'].includes(v)) return 0;
  if (['true', 'yes'].includes(v)) return 1;
  const hops = Number(v);
  if (!Number.isInteger(hops) || hops < 1 || hops > 10) {
    problems.push(`LANYARD_TRUST_PROXY: "${value}" must be true, false or the number of proxies in front of Lanyard (1-10)`);
    return 0;
  }
  return hops;
}

function parseKek(value: string | undefined, problems: string[]): Buffer | undefined {
  if (!value) return undefined;
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) problems.push('LANYARD_KEY_ENCRYPTION_KEY: must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
}

function parseLogFormat(value: string | undefined, problems: string[]): LogFormat | undefined {
  if (!value) return undefined;
  if ((LOG_FORMATS as readonly string[]).includes(value)) return value as LogFormat;
  problems.push(`LANYARD_LOG_FORMAT: "${value}" must be json or pretty (unset: pretty on a terminal, JSON otherwise)`);
  return undefined;
}

const MAX_WORKERS = 64;

/** LANYARD_WORKERS: a number of processes (1–64) or `auto` (one per core); unset, `auto` in production. */
function parseWorkers(value: string | undefined, production: boolean, storeUrl: string, problems: string[]): number {
  const auto = availableParallelism();
  let workers: number;
  if (value === undefined || value === '') workers = production ? auto : 1;
  else if (value === 'auto') workers = auto;
  else if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_WORKERS) workers = Number(value);
  else {
    problems.push(`LANYARD_WORKERS: "${value}" must be a number of processes from 1 to ${MAX_WORKERS}, or auto (one per core: ${auto} here)`);
    return 1;
  }
  // Each process would have its own empty in-memory database: sign-ins, codes and keys would not be shared.
  if (workers > 1 && storeUrl === 'sqlite::memory:') {
    problems.push(`LANYARD_WORKERS: ${workers} processes cannot share LANYARD_STORE=sqlite::memory: (each would have its own); use a file or Redis, or one worker`);
    return 1;
  }
  return workers;
}

/** LANYARD_REDIS_PREFIX, or the default; for commands that name stores of their own (`lanyard store copy`). */
export const envRedisPrefix = (env: Env = process.env): string => env.LANYARD_REDIS_PREFIX || DEFAULT_REDIS_PREFIX;

/**
 * The store URL, checked: a store that is not a file on this machine is shared by instances elsewhere, and
 * they must all read each other's signing keys, so it needs LANYARD_KEY_ENCRYPTION_KEY (a generated one
 * would exist in one process only).
 */
function parseStore(env: Env, problems: string[]): { storeUrl: string; redisPrefix: string } {
  const storeUrl = env.LANYARD_STORE || DEFAULT_STORE_URL;
  const redisPrefix = envRedisPrefix(env);
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

/** Loads the whole configuration; throws ConfigError with every problem found (checkConfig's list). */
export function loadConfig(env: Env = process.env): Config {
  const { config, problems } = checkConfig(env);
  if (!config) throw new ConfigError(problems);
  return config;
}

export interface ConfigCheck {
  /** The configuration, when nothing is wrong with it. */
  config?: Config | undefined;
  /** Every reason `serve` would refuse to start, each naming its variable or the file's JSON path. */
  problems: string[];
  /** Whether the production rules were applied. */
  production: boolean;
}

/**
 * Every reason `serve` would refuse this environment and file, all at once (not just the first): what
 * startup enforces (loadConfig) and what `lanyard check-config` reports. `configPath` checks another file
 * than LANYARD_CONFIG; `production` applies the production rules as NODE_ENV=production does.
 */
export function checkConfig(env: Env = process.env, o: { configPath?: string | undefined; production?: boolean } = {}): ConfigCheck {
  if (o.configPath !== undefined) env = { ...env, LANYARD_CONFIG: o.configPath };
  if (o.production) env = { ...env, NODE_ENV: 'production' };
  const problems: string[] = [];
  const port = parsePort(env.PORT, problems);
  const usingDemo = !env.LANYARD_CONFIG;
  const configPath = usingDemo ? demoConfigPath : resolve(env.LANYARD_CONFIG!);
  // A bad file must not hide bad variables: collect its problems with the rest and report them all at once.
  const inspected = inspectConfigFile(configPath, { usingDemo });
  problems.push(...inspected.problems);
  const demoApp = parseDemoAppSetting(env.LANYARD_DEMO_APP, port, problems);
  const file = inspected.file && usingDemo && demoApp.port !== undefined
    ? { ...inspected.file, clients: movedDemoClient(inspected.file.clients, demoApp.port) }
    : inspected.file;
  const issuer = parseIssuer(env.LANYARD_ISSUER || `http://localhost:${port}`, problems);
  const logLevel = env.LANYARD_LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`LANYARD_LOG_LEVEL: "${logLevel}" is not a pino level`);
  }
  const cookieKeys = parseCookieKeys(env.LANYARD_COOKIE_KEYS, problems);
  const keyEncryptionKey = parseKek(env.LANYARD_KEY_ENCRYPTION_KEY, problems);
  const store = parseStore(env, problems);
  const trustProxy = parseTrustProxy(env.LANYARD_TRUST_PROXY, problems);
  const logFormat = parseLogFormat(env.LANYARD_LOG_FORMAT, problems);
  const production = env.NODE_ENV === 'production';
  const workers = parseWorkers(env.LANYARD_WORKERS, production, store.storeUrl, problems);
  const metrics = parseMetricsConfig(env, production, port, problems);
  if (production) problems.push(...productionProblems({ issuer, cookieKeys }, usingDemo), ...inspected.productionProblems);
  if (!file || problems.length) return { problems, production };
  const config: Config = {
    production,
    port,
    host: env.HOST || defaultHost(file, usingDemo),
    issuer,
    configPath,
    ...store,
    cookieKeys,
    keyEncryptionKey,
    trustProxy,
    logLevel,
    logFormat,
    serviceDocumentation: file.service_documentation ?? `${issuer}/docs`,
    developerSignup: file.developer_signup ?? 'invite',
    file,
    demoApp: usingDemo && !production && demoApp.on,
    workers,
    metrics,
    warnings: [],
  };
  config.warnings = developmentWarnings(config, usingDemo);
  return { config, problems, production };
}
