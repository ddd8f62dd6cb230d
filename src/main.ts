import { join, resolve } from 'node:path';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { type Config, loadConfig } from './config.js';
import { startDemoApp } from './demo/demo-app.js';
import { routeProviderConsole } from './provider/console-bridge.js';
import { closeGracefully } from './graceful-close.js';
import { KEK_FILE } from './keys/key-encryption-key.js';
import { shortLogLines } from './logging.js';
import { openServices } from './services.js';
import { demoSignIns, type StartupFacts, startupSummary } from './startup-summary.js';
import { redactUrl, storeDataDir } from '../adapters/open-store.js';
import type { RedisPersistence } from '../adapters/redis.js';

const SWEEP_INTERVAL_MS = 10 * 60_000;

/** LANYARD_LOG_FORMAT, or when unset: a summary and short lines for a person at a terminal, JSON otherwise. */
export const prettyOutput = (config: Config, out: { isTTY?: boolean }): boolean =>
  config.logFormat ? config.logFormat === 'pretty' : Boolean(out.isTTY);

type Log = { info(o: object, m: string): void; warn(o: object, m: string): void };

/**
 * Process entry: load config, open the store, build the app, listen; shut down gracefully on signals.
 * On a terminal (or LANYARD_LOG_FORMAT=pretty) the startup events become one summary (startup-summary.ts)
 * printed once Lanyard listens, and later log lines short ones; otherwise every event is a JSON line.
 */
export async function serve(config: Config = loadConfig(), out: NodeJS.WriteStream = process.stdout): Promise<void> {
  const pretty = prettyOutput(config, out);
  const services = await openServices(config, systemClock);
  const app = await buildApp({ config, clock: systemClock, ...services, ...(pretty ? { logStream: shortLogLines(out) } : {}) });
  routeProviderConsole(app.log);
  // In pretty mode the startup events wait for the summary (its facts and warnings) instead of the log.
  const warnings: string[] = [];
  const startupLog: Log = pretty ? { info: () => {}, warn: (_o, m) => warnings.push(m.replace(/^⚠️ {2}/, '')) } : app.log;
  for (const warning of config.warnings) startupLog.warn({ event: 'config.unsafe_default' }, `⚠️  ${warning}`);
  logStore(startupLog, config, services.redisPersistence);

  const sweeper = setInterval(() => {
    services.store.sweep().then(
      (n) => n && app.log.debug({ event: 'store.swept', removed: n }, 'expired records removed'),
      (err: unknown) => app.log.error({ err }, 'sweep failed'),
    );
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ event: 'shutdown', signal }, 'shutting down');
    clearInterval(sweeper);
    if (await closeGracefully(app)) app.log.warn({ event: 'shutdown.connections_cut' }, 'requests still open after the grace period were cut');
    await services.store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  startupLog.info({ event: 'ready', issuer: config.issuer, discovery: `${config.issuer}/.well-known/openid-configuration` }, 'Lanyard is ready');
  const demoAppUrl = config.demoApp ? await serveDemoApp(config, startupLog) : undefined;
  if (pretty) out.write(startupSummary(startupFacts(config, demoAppUrl, warnings)));
}

/** The facts of the startup summary. */
function startupFacts(config: Config, demoAppUrl: string | undefined, warnings: string[]): StartupFacts {
  const dir = storeDataDir(config.storeUrl);
  const dataDir = dir === undefined ? undefined : resolve(dir);
  const keyEncryptionKey = config.keyEncryptionKey ? 'LANYARD_KEY_ENCRYPTION_KEY'
    : dataDir ? `${join(dataDir, KEK_FILE)} (back it up with the database, kept apart)`
      : 'a key that lives as long as this process (the store keeps nothing either)';
  return {
    issuer: config.issuer,
    demoAppUrl,
    developerSignup: config.developerSignup,
    signIns: demoSignIns(config.file),
    store: redactUrl(config.storeUrl),
    redisPrefix: config.storeUrl.startsWith('sqlite:') ? undefined : config.redisPrefix,
    dataDir,
    keyEncryptionKey,
    warnings,
  };
}

/** The quick start's relying party for the demo client, on the port of its registered callback; its URL. */
async function serveDemoApp(config: Config, log: Log): Promise<string | undefined> {
  const demo = config.file.clients.find((c) => c.client_id === 'demo-app');
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
    log.warn({ event: 'demo_app.unavailable', err: (err as Error).message }, `Demo App not started on port ${port}: ${why} (LANYARD_DEMO_APP=off turns it off)`);
    return undefined;
  }
}

/**
 * Which store is in use and, for Redis, what the server says about persistence: a Redis that keeps nothing
 * forgets every session, token, client and signing key when it restarts (README → Redis).
 */
function logStore(log: Log, config: Config, persistence?: RedisPersistence) {
  log.info({ event: 'store.opened', store: redactUrl(config.storeUrl), prefix: persistence ? config.redisPrefix : undefined }, 'store opened');
  if (!persistence) return;
  const nothing = !persistence.aof && !persistence.rdb;
  const entry = { event: 'store.redis_persistence', aof: persistence.aof, rdb: persistence.rdb, appendfsync: persistence.appendfsync };
  if (nothing && config.production) log.warn(entry, `⚠️  Redis persists nothing (${persistence.summary}): a restart of Redis loses every session, token, client and signing key. Turn on appendonly yes.`);
  else if (!persistence.aof) log.warn(entry, `Redis: ${persistence.summary}; appendonly yes is recommended`);
  else log.info(entry, `Redis: ${persistence.summary}`);
}
