import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { type Config, loadConfig } from './config.js';
import { ConfigError } from './errors.js';
import { startDemoApp } from './demo/demo-app.js';
import { routeProviderConsole } from './provider/console-bridge.js';
import { closeGracefully } from './graceful-close.js';
import { openServices } from './services.js';
import { redactUrl } from '../adapters/open-store.js';
import type { RedisPersistence } from '../adapters/redis.js';

const SWEEP_INTERVAL_MS = 10 * 60_000;

/** Process entry: load config, open the store, build the app, listen; shut down gracefully on signals. */
export async function serve(config: Config = loadConfig()): Promise<void> {
  const services = await openServices(config, systemClock);
  const app = await buildApp({ config, clock: systemClock, ...services });
  routeProviderConsole(app.log);
  for (const warning of config.warnings) app.log.warn({ event: 'config.unsafe_default' }, `⚠️  ${warning}`);
  logStore(app.log, config, services.redisPersistence);

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
  app.log.info({ event: 'ready', issuer: config.issuer, discovery: `${config.issuer}/.well-known/openid-configuration` }, 'Lanyard is ready');
  if (config.demoApp) await serveDemoApp(config, app.log);
}

/** The quick start's relying party for the demo client, on the port of its registered callback. */
async function serveDemoApp(config: Config, log: { info(o: object, m: string): void; warn(o: object, m: string): void }) {
  const demo = config.file.clients.find((c) => c.client_id === 'demo-app');
  const secret = demo?.secrets?.[0];
  if (!demo || !secret) return;
  const port = Number(new URL(demo.redirect_uris[0]!).port || 80);
  try {
    await startDemoApp({ issuer: config.issuer, port, clientId: demo.client_id, clientSecret: secret });
    log.info({ event: 'demo_app.ready', url: `http://localhost:${port}/` }, `Demo App: open http://localhost:${port}/ and sign in`);
  } catch (err) {
    log.warn({ event: 'demo_app.unavailable', err: (err as Error).message }, `Demo App not started on port ${port}`);
  }
}

/**
 * Which store is in use and, for Redis, what the server says about persistence: a Redis that keeps nothing
 * forgets every session, token, client and signing key when it restarts (README → Redis).
 */
function logStore(log: { info(o: object, m: string): void; warn(o: object, m: string): void }, config: Config, persistence?: RedisPersistence) {
  log.info({ event: 'store.opened', store: redactUrl(config.storeUrl), prefix: persistence ? config.redisPrefix : undefined }, 'store opened');
  if (!persistence) return;
  const nothing = !persistence.aof && !persistence.rdb;
  const entry = { event: 'store.redis_persistence', aof: persistence.aof, rdb: persistence.rdb, appendfsync: persistence.appendfsync };
  if (nothing && config.production) log.warn(entry, `⚠️  Redis persists nothing (${persistence.summary}): a restart of Redis loses every session, token, client and signing key. Turn on appendonly yes.`);
  else if (!persistence.aof) log.warn(entry, `Redis: ${persistence.summary}; appendonly yes is recommended`);
  else log.info(entry, `Redis: ${persistence.summary}`);
}

/** Prints a configuration error the way an operator needs it and exits non-zero. */
export function exitOnStartupError(err: unknown): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`lanyard: ${err.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  process.stderr.write(`lanyard: startup failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
