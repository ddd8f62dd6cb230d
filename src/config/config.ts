import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import { demoConfigPath } from '../package-files.js';
import {
  defaultHost, defaultIssuer, defaultServiceDocumentation, defaultWorkers, DEVELOPER_SIGNUP_DEFAULT,
} from './defaults.js';
import { parseDemoAppSetting, movedDemoClient } from './demo-app.js';
import {
  type Env, type LogFormat, parseCookieKeys, parseIssuer, parseKek, parseLogFormat, parseLogLevel, parsePort, parseStore,
  parseStoreInit, parseTrustProxy, parseWorkers, redisPrefixOf, type StoreInit,
} from './env.js';
import { inspectConfigFile } from './file.js';
import { type MetricsConfig, parseMetricsConfig } from './metrics.js';
import { developmentWarnings, isDevelopment, productionEnvProblems } from './production.js';
import type { ConfigFile, DeveloperSignup } from './schema.js';

/**
 * Configuration: one JSON file validated against its schema (src/config/schema.ts), plus deployment settings
 * from the environment (src/config/env.ts), with every default in src/config/defaults.ts. This is the only
 * module that reads process.env (docs/architecture.md → Rules of thumb); the `lanyard` command's bootstrap
 * (src/cli.ts) is the one documented exception, as it must size libuv's pool before anything else loads.
 */

export interface Config {
  production: boolean;
  port: number;
  host: string;
  issuer: string;
  configPath: string;
  /** LANYARD_STORE: `sqlite:<path>`, `redis://…`, `rediss://…`, `redis-sentinel://…` (default in defaults.ts). */
  storeUrl: string;
  /** LANYARD_REDIS_PREFIX: the namespace of Lanyard's keys in Redis, so deployments can share one. */
  redisPrefix: string;
  /** LANYARD_STORE_INIT: whether an empty store is started anew at the first start, or only by `lanyard store init`. */
  storeInit: StoreInit;
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
  /** Who may create a developer account: the file's `developer_signup`. */
  developerSignup: DeveloperSignup;
  file: ConfigFile;
  /**
   * Serve the demo relying party beside Lanyard, on its callback's port (8080, or LANYARD_DEMO_APP's port):
   * only with the demo config.
   */
  demoApp: boolean;
  /**
   * LANYARD_WORKERS: how many processes serve requests on this machine, sharing the port and the store
   * (src/cluster/).
   */
  workers: number;
  /**
   * The `lanyard` command sized libuv's thread pool itself (UV_THREADPOOL_SIZE was unset: src/cli.ts), so the
   * cluster primary sizes each worker's pool for its share of the cores (src/cluster/primary.ts).
   */
  threadPoolSizedByLanyard: boolean;
  /**
   * LANYARD_INSTANCE_OF: set by the cluster primary for its workers (src/cluster/primary.ts), never by an
   * operator: the primary's instance, under which each worker reports the configuration revision it runs, so
   * that a reload knows its own workers from other instances (src/clients/config-revision-gate.ts).
   */
  instanceOf?: string | undefined;
  /** NODE_OPTIONS, which a worker process is started with too (src/process/sizing.ts workerExecArgv). */
  nodeOptions: string;
  /** LANYARD_METRICS_TOKEN, LANYARD_METRICS_PORT, LANYARD_METRICS_HOST: where /metrics is served (src/metrics/). */
  metrics: MetricsConfig;
  /** Unsafe development defaults in use; printed loudly at startup. */
  warnings: string[];
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
  const issuer = parseIssuer(env.LANYARD_ISSUER || defaultIssuer(port), problems);
  const logLevel = parseLogLevel(env.LANYARD_LOG_LEVEL, problems);
  const cookieKeys = parseCookieKeys(env.LANYARD_COOKIE_KEYS, problems);
  const keyEncryptionKey = parseKek(env.LANYARD_KEY_ENCRYPTION_KEY, problems);
  const store = parseStore(env, problems);
  const storeInit = parseStoreInit(env.LANYARD_STORE_INIT, problems);
  const trustProxy = parseTrustProxy(env.LANYARD_TRUST_PROXY, problems);
  const logFormat = parseLogFormat(env.LANYARD_LOG_FORMAT, problems);
  const production = env.NODE_ENV === 'production';
  const cores = availableParallelism();
  const workers = parseWorkers(env.LANYARD_WORKERS, { defaultWorkers: defaultWorkers(production, cores), cores, storeUrl: store.storeUrl }, problems);
  const metrics = parseMetricsConfig(env, production, port, problems);
  if (production) problems.push(...productionEnvProblems({ issuer, cookieKeys }, usingDemo), ...inspected.productionProblems);
  if (!file || problems.length) return { problems, production };
  const host = env.HOST || defaultHost(isDevelopment(file, usingDemo));
  const config: Config = {
    production,
    port,
    host,
    issuer,
    configPath,
    ...store,
    storeInit,
    cookieKeys,
    keyEncryptionKey,
    trustProxy,
    logLevel,
    logFormat,
    serviceDocumentation: file.service_documentation ?? defaultServiceDocumentation(issuer),
    developerSignup: file.developer_signup ?? DEVELOPER_SIGNUP_DEFAULT,
    file,
    demoApp: usingDemo && !production && demoApp.on,
    workers,
    // Set by the `lanyard` command's bootstrap (src/cli.ts) when it sized the pool itself.
    threadPoolSizedByLanyard: env.LANYARD_THREADPOOL === 'auto',
    instanceOf: env.LANYARD_INSTANCE_OF || undefined,
    nodeOptions: env.NODE_OPTIONS ?? '',
    metrics,
    warnings: developmentWarnings({ file, configPath, host, cookieKeys }, usingDemo),
  };
  return { config, problems, production };
}

/** LANYARD_REDIS_PREFIX, or the default; for commands that name stores of their own (`lanyard store copy`). */
export const envRedisPrefix = (env: Env = process.env): string => redisPrefixOf(env);
