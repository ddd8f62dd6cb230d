import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { type Config, loadConfig } from './config/config.js';
import { routeProviderConsole } from './provider/console-bridge.js';
import { serverLogStream } from './logging.js';
import { openServices } from './startup/services.js';
import { stopOnce } from './startup/shutdown.js';
import { holdHangUps, onHangUp } from './process/hang-up.js';
import { beginStartup, finishStartup, prettyOutput, startSweeper } from './startup/startup.js';
import { auditSettings } from './config/audit.js';
import { rosterSettings } from './config/roster.js';

/**
 * Process entry of `lanyard serve`: load config, open the store, build the app, listen; shut down gracefully
 * on signals. With LANYARD_WORKERS above 1 this process becomes the primary of that many workers
 * (src/cluster/primary.ts), and each worker comes back here (src/cluster/worker.ts).
 * On a terminal (or LANYARD_LOG_FORMAT=pretty) the startup events become one summary (src/startup/summary.ts)
 * printed once Lanyard listens, and later log lines short ones; otherwise every event is a JSON line.
 */
export async function serve(config: Config = loadConfig(), out: NodeJS.WriteStream = process.stdout): Promise<void> {
  if (cluster.isWorker) {
    process.on('SIGHUP', () => {}); // the primary's to act on (a terminal's hang-up reaches every process of it)
    return (await import('./cluster/worker.js')).serveWorker(config, out);
  }
  holdHangUps();
  if (config.workers > 1) return (await import('./cluster/primary.js')).servePrimary(config, out);
  return serveOneProcess(config, out);
}

/** LANYARD_WORKERS=1: everything in this process. */
async function serveOneProcess(config: Config, out: NodeJS.WriteStream): Promise<void> {
  const pretty = prettyOutput(config, out);
  const services = await openServices(config, systemClock);
  const app = await buildApp({ config, clock: systemClock, ...services, logStream: serverLogStream(pretty, out) });
  routeProviderConsole(app.log);
  const startup = beginStartup(config, pretty, app.log, services.redisPersistence);
  const sweeper = startSweeper(services.store, app.log, {
    clock: systemClock, days: rosterSettings(config.file).retentionDays, auditDays: auditSettings(config.file).retentionDays,
  });

  const stop = stopOnce({ app, store: services.store, audit: services.audit, beforeClose: () => clearInterval(sweeper) });
  const shutdown = (signal: string) => stop({ line: { event: 'shutdown', signal }, message: 'shutting down' });
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  onHangUp(out, {
    stop: () => void shutdown('SIGHUP'),
    reload: () => app.log.warn({ event: 'reload.unsupported' }, 'SIGHUP: a process serving alone cannot reload its configuration; restart it, or serve with LANYARD_WORKERS of 2 or more'),
  });

  await app.listen({ port: config.port, host: config.host });
  await finishStartup(startup, services.store, out, 'Lanyard is ready');
}
