import { join, resolve } from 'node:path';
import type { Store } from '../../adapters/store.js';
import type { Config } from '../config/config.js';
import { ENV_DEFAULTS } from '../config/defaults.js';
import { startDemoApp } from '../demo/demo-app.js';
import { DEMO_CLIENT_ID } from '../config/demo-app.js';
import { KEK_FILE } from '../keys/key-encryption-key.js';
import { demoConfigPath } from '../package-files.js';
import { markReplacedSignIns } from './replaced-sign-ins.js';
import { type DemoSignIn, demoSignIns, type StartupFacts, startupSummary } from './summary.js';
import { storeDataDir } from '../../adapters/open-store.js';
import { redactUrl } from '../config/store-url.js';
import type { RedisPersistence } from '../../adapters/redis.js';
import type { Clock } from '../clock.js';
import { purgeAudit } from '../audit/retention.js';
import { purgeLeavers, retentionCutoff } from '../roster/retention.js';
import { RosterBusyError } from '../roster/roster-lock.js';

/**
 * What every way of running `lanyard serve` (one process, or a primary and its workers: src/cluster/) says
 * and starts around the server itself: the startup log and summary, the Demo App, the sweeper.
 */

const SWEEP_INTERVAL_MS = 10 * 60_000;
/** Leavers and audit events past retention are looked for every sixth sweep: once an hour. */
const RETENTION_TICKS = 6;

/** LANYARD_LOG_FORMAT, or when unset: a summary and short lines for a person at a terminal, JSON otherwise. */
export const prettyOutput = (config: Config, out: { isTTY?: boolean }): boolean =>
  config.logFormat ? config.logFormat === 'pretty' : Boolean(out.isTTY);

export type Log = { info(o: object, m: string): void; warn(o: object, m: string): void; error(o: object, m: string): void; debug(o: object, m: string): void };

export interface Startup {
  config: Config;
  pretty: boolean;
  /** Where the startup events go: in pretty mode they wait for the summary instead of the log. */
  log: Pick<Log, 'info' | 'warn'>;
  /** The warnings, collected for the summary. */
  warnings: string[];
}

/**
 * Before serving, in the process that starts Lanyard (the only one, or the primary): the configuration's
 * unsafe defaults and the store in use, to the log or (pretty) kept for the summary.
 */
export function beginStartup(config: Config, pretty: boolean, log: Log, persistence?: RedisPersistence): Startup {
  const warnings: string[] = [];
  const startup: Startup = {
    config, pretty, warnings,
    log: pretty ? { info: () => {}, warn: (_o, m) => warnings.push(m.replace(/^⚠️ {2}/, '')) } : log,
  };
  for (const warning of config.warnings) startup.log.warn({ event: 'config.unsafe_default' }, `⚠️  ${warning}`);
  logStore(startup.log, config, persistence);
  return startup;
}

/** Once serving: the `ready` event (with `fields` of its own), the Demo App, and (pretty) the summary. */
export async function finishStartup(startup: Startup, store: Store, out: NodeJS.WritableStream, msg: string, fields: object = {}): Promise<void> {
  const { config } = startup;
  startup.log.info({ event: 'ready', open: `${config.issuer}/`, issuer: config.issuer, discovery: `${config.issuer}/.well-known/openid-configuration`, ...fields }, msg);
  const demoAppUrl = config.demoApp ? await serveDemoApp(config, startup.log) : undefined;
  if (startup.pretty) {
    const signIns = await markReplacedSignIns(store, demoSignIns(config.file));
    out.write(startupSummary(startupFacts(config, demoAppUrl, signIns, startup.warnings)));
  }
}

/**
 * Removes expired records every ten minutes (one process does it: the only one, or the primary), and once an
 * hour deletes the roster's leavers whose retention period is over (docs/rostering.md → Leavers and retention)
 * and the audit trail's events past theirs (docs/storage.md → The audit trail).
 */
export function startSweeper(store: Store, log: Log, retention?: Retention): NodeJS.Timeout {
  let tick = 0;
  const sweeper = setInterval(() => { void sweepTick(store, log, (tick += 1), retention); }, SWEEP_INTERVAL_MS);
  sweeper.unref();
  return sweeper;
}

export interface Retention {
  clock: Clock;
  /** The roster's `retention_days`: leavers. */
  days: number;
  /** The audit trail's `retention_days`; without it, no event is deleted. */
  auditDays?: number | undefined;
}

/** The sweeper's `tick`th run: expired records, and every sixth time leavers and audit events past retention. Never throws. */
export async function sweepTick(store: Store, log: Log, tick: number, retention?: Retention): Promise<void> {
  await store.sweep().then(
    (n) => n && log.debug({ event: 'store.swept', removed: n }, 'expired records removed'),
    (err: unknown) => log.error({ err }, 'sweep failed'),
  );
  if (!retention || tick % RETENTION_TICKS !== 0) return;
  // Another instance (or a `lanyard roster` command) at it already: this one lets it be.
  await purgeLeavers(store, retention.clock, { before: retentionCutoff(retention.clock, retention.days), lockWaitMs: 0 }).then(
    (gone) => gone.length && log.info({ event: 'roster.leavers_deleted', users: gone.map((u) => u.id) }, `${gone.length} leaver(s) deleted after the retention period`),
    (err: unknown) => (err instanceof RosterBusyError ? undefined : log.error({ err }, 'deleting leavers failed')),
  );
  if (retention.auditDays === undefined) return;
  // Every instance may: deleting what another deleted already deletes nothing.
  await purgeAudit(store, retention.clock, retention.auditDays).then(
    (n) => n && log.info({ event: 'audit.purged', removed: n }, `${n} audit event(s) deleted after the retention period`),
    (err: unknown) => log.error({ err }, 'deleting audit events past retention failed'),
  );
}

/** The facts of the startup summary. */
function startupFacts(config: Config, demoAppUrl: string | undefined, signIns: DemoSignIn[], warnings: string[]): StartupFacts {
  const dir = storeDataDir(config.storeUrl);
  const dataDir = dir === undefined ? undefined : resolve(dir);
  const keyEncryptionKey = config.keyEncryptionKey ? 'LANYARD_KEY_ENCRYPTION_KEY'
    : dataDir ? `${join(dataDir, KEK_FILE)} (back it up with the database, kept apart)`
      : 'a key that lives as long as this process (the store keeps nothing either)';
  return {
    issuer: config.issuer,
    demoAppUrl,
    developerSignup: config.developerSignup,
    cliEnvironment: cliEnvironment(config),
    signIns,
    store: redactUrl(config.storeUrl),
    redisPrefix: config.storeUrl.startsWith('sqlite:') ? undefined : config.redisPrefix,
    dataDir,
    keyEncryptionKey,
    warnings,
  };
}

/** The quick start's relying party for the demo client, on the port of its registered callback (LANYARD_DEMO_APP may move both); its URL. */
async function serveDemoApp(config: Config, log: Pick<Log, 'info' | 'warn'>): Promise<string | undefined> {
  const demo = config.file.clients.find((c) => c.client_id === DEMO_CLIENT_ID);
  const secret = demo?.secrets?.[0];
  if (!demo || !secret) return undefined;
  const port = Number(new URL(demo.redirect_uris[0]!).port || 80);
  try {
    await startDemoApp({ issuer: config.issuer, port, clientId: demo.client_id, clientSecret: secret });
    const url = `http://localhost:${port}/`;
    log.info({ event: 'demo_app.ready', url }, `Demo App: open ${url} and sign in`);
    return url;
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? 'the port is in use' : (err as Error).message;
    log.warn({ event: 'demo_app.unavailable', err: (err as Error).message }, `Demo App not started on port ${port}: ${why} (LANYARD_DEMO_APP=<another port> moves it, LANYARD_DEMO_APP=off turns it off)`);
    return undefined;
  }
}

/**
 * The settings a `lanyard` command must share with this server to act on it (its issuer names the links
 * it prints, its store and file are what it changes), as a shell prefix; only those not at their default.
 * A Redis URL is shown redacted: its password is the operator's to add.
 */
function cliEnvironment(config: Config): string | undefined {
  const quoted = (v: string) => (/^[\w./:@%+=,-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  const parts: string[] = [];
  if (config.issuer !== `http://localhost:${config.port}`) parts.push(`LANYARD_ISSUER=${quoted(config.issuer)}`);
  else if (config.port !== 3000) parts.push(`PORT=${config.port}`);
  if (config.configPath !== demoConfigPath) parts.push(`LANYARD_CONFIG=${quoted(config.configPath)}`);
  if (config.storeUrl !== ENV_DEFAULTS.storeUrl) parts.push(`LANYARD_STORE=${quoted(redactUrl(config.storeUrl))}`);
  return parts.length ? `${parts.join(' ')} ` : undefined;
}

/**
 * Which store is in use and, for Redis, what the server says about persistence: a Redis that keeps nothing
 * forgets every session, token, client and signing key when it restarts (docs/storage.md → Redis).
 */
function logStore(log: Pick<Log, 'info' | 'warn'>, config: Config, persistence?: RedisPersistence) {
  log.info({ event: 'store.opened', store: redactUrl(config.storeUrl), prefix: persistence ? config.redisPrefix : undefined }, 'store opened');
  if (!persistence) return;
  const nothing = !persistence.aof && !persistence.rdb;
  const entry = { event: 'store.redis_persistence', aof: persistence.aof, rdb: persistence.rdb, appendfsync: persistence.appendfsync };
  if (nothing && config.production) log.warn(entry, `⚠️  Redis persists nothing (${persistence.summary}): a restart of Redis loses every session, token, client and signing key. Turn on appendonly yes.`);
  else if (!persistence.aof) log.warn(entry, `Redis: ${persistence.summary}; appendonly yes is recommended`);
  else log.info(entry, `Redis: ${persistence.summary}`);
}
