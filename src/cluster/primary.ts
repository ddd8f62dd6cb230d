import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import pino from 'pino';
import { systemClock } from '../clock.js';
import type { Config } from '../config/config.js';
import { loggerOptions, shortLogLines } from '../logging.js';
import { servePrimaryMetrics } from '../metrics/cluster-primary.js';
import { openServices } from '../startup/services.js';
import { beginStartup, finishStartup, type Log, prettyOutput, startSweeper } from '../startup/startup.js';
import { localHasher, useCredentialHasher } from '../accounts/credential-hasher.js';
import { Limiter } from '../accounts/limiter.js';
import { onHangUp } from '../process/hang-up.js';
import { hashForWorkers } from './hashing-broker.js';
import { lowerHashingPriority } from './hashing-priority.js';
import { oneReloadAtATime, reloadWorkers } from './reload.js';
import { argon2Slots, threadPoolSize, workerExecArgv } from '../process/sizing.js';
import { WorkerPool, WorkerStartupError } from './worker-pool.js';
import { auditSettings } from '../config/audit.js';
import { rosterSettings } from '../config/roster.js';

/**
 * The primary process of `lanyard serve` with LANYARD_WORKERS above 1. It serves no requests: it writes the
 * configuration into the store and makes this month's key once (so that the workers do not race to), forks
 * the workers (node:cluster hands them connections on the shared port), hashes and checks credentials for
 * them within the machine's argon2 slots (hashing-broker.ts), sweeps expired records and runs the Demo App.
 * On SIGHUP it reloads the configuration file and replaces the workers one at a time (reload.ts); on SIGTERM
 * or SIGINT it stops every worker gracefully before it exits.
 */
export async function servePrimary(config: Config, out: NodeJS.WriteStream): Promise<void> {
  const pretty = prettyOutput(config, out);
  const log = pino(loggerOptions(config.logLevel), pretty ? shortLogLines(out) : out) as unknown as Log;
  // One bound on argon2 for the machine: the workers' hashes (done here, below) and the primary's own (the
  // configuration file's credentials, at startup and on reload).
  const argon2 = new Limiter(argon2Slots());
  useCredentialHasher(localHasher(argon2));
  const services = await openServices(config, systemClock, undefined, { metrics: false }); // it sums the workers' metrics instead
  await lowerHashingPriority(log);
  const startup = beginStartup(config, pretty, log, services.redisPersistence);
  // The workers' metrics, summed: for a worker asked on the main port, and on LANYARD_METRICS_PORT.
  const metrics = await servePrimaryMetrics(config.metrics, { log });

  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    clearInterval(sweeper);
    await pool.stop(); // the workers may still ask for hashes while they finish their requests
    await reloads.settled(); // a reload writing the file into the store finishes before the store closes
    stopHashing();
    await metrics.close();
    await services.audit.close();
    await services.store.close();
    process.exit(code);
  };
  const stopHashing = hashForWorkers(argon2);
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, config.nodeOptions) }); // a smaller young generation per worker (sizing.ts)
  const pool = new WorkerPool({
    count: config.workers,
    // The workers report the configuration revision they run under this primary's instance (src/config/config.ts instanceOf).
    env: { ...workerEnvironment(config), LANYARD_INSTANCE_OF: services.configRevision.instance },
    log,
    onGiveUp: () => {
      log.error({ event: 'workers.gave_up' }, 'replacement workers keep failing: Lanyard is stopping');
      void exit(1);
    },
  });
  const sweeper = startSweeper(services.store, log, {
    clock: systemClock, days: rosterSettings(config.file).retentionDays, auditDays: auditSettings(config.file).retentionDays,
  });
  const shutdown = (signal: string) => { log.info({ event: 'shutdown', signal }, 'shutting down'); void exit(0); };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  let started: () => void = () => {};
  const allStarted = new Promise<void>((resolve) => { started = resolve; });
  // A reload asked for while the first workers start waits for them: it replaces listening workers only.
  const reloads = oneReloadAtATime(async () => {
    await allStarted;
    if (!exiting) await reloadWorkers({ pool, store: services.store, clock: systemClock, log, instance: services.configRevision.instance });
  });
  onHangUp(out, { stop: () => shutdown('SIGHUP'), reload: reloads.request });

  try {
    await pool.start();
  } catch (err) {
    if (!(err instanceof WorkerStartupError)) throw err;
    // The worker has said why on standard error; every worker would stop for the same reason. A reload
    // waiting for the workers to start is let go: it sees Lanyard stopping, and exit waits for it.
    started();
    return exit(err.exitCode || 1);
  }
  started();
  await finishStartup(startup, services.store, out, `Lanyard is ready (${config.workers} worker processes)`, { workers: config.workers, pids: pool.pids });
}

/**
 * Each worker's libuv pool sized for its share of the cores (src/process/sizing.ts), unless the operator
 * set UV_THREADPOOL_SIZE (src/cli.ts marks a size it chose itself).
 */
function workerEnvironment(config: Pick<Config, 'workers' | 'threadPoolSizedByLanyard'>): Record<string, string> {
  if (!config.threadPoolSizedByLanyard) return {};
  return { UV_THREADPOOL_SIZE: String(threadPoolSize(config.workers, availableParallelism())) };
}
