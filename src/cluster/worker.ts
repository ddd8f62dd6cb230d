import { buildApp } from '../app.js';
import { useCredentialHasher } from '../accounts/credential-hasher.js';
import { systemClock } from '../clock.js';
import type { Config } from '../config/config.js';
import { serverLogStream } from '../logging.js';
import { routeProviderConsole } from '../provider/console-bridge.js';
import { openServices } from '../startup/services.js';
import { stopOnce } from '../startup/shutdown.js';
import { prettyOutput } from '../startup/startup.js';
import { handOverFinalCounts } from '../metrics/cluster-worker.js';
import { RemoteHasher } from './hashing-client.js';
import { isLanyardMessage } from '../process/ipc-message.js';
import { READY, RETIRE } from './worker-pool.js';

/**
 * One worker process of `lanyard serve` (src/cluster/primary.ts forked it): the whole app on the shared
 * port and store; the primary hashes and checks its users' credentials. The primary has already written the
 * configuration into the store and made this month's key, so a worker only opens them. It stops gracefully
 * on SIGTERM or SIGINT, and also when the primary is gone (the IPC channel closes), so that no worker
 * outlives it. Told it is being replaced (a reload), it first drains its connections (src/http/graceful-close.ts).
 * SIGHUP is the primary's to act on: src/main.ts ignores it in a worker.
 */
export async function serveWorker(config: Config, out: NodeJS.WriteStream): Promise<void> {
  useCredentialHasher(new RemoteHasher());
  const pretty = prettyOutput(config, out);
  const services = await openServices(config, systemClock, undefined, { setUp: false, checkpointThread: false });
  const app = await buildApp({ config, clock: systemClock, ...services, logStream: serverLogStream(pretty, out) });
  routeProviderConsole(app.log);

  const stopWorker = stopOnce({ app, store: services.store, audit: services.audit });
  const stop = (reason: string) => stopWorker({
    line: { event: 'worker.stopping', reason },
    message: 'worker shutting down',
    drain: reason === 'replaced',
    // The primary's sums keep a replaced worker's counts (src/metrics/cluster-primary.ts); without them, still stop.
    afterClose: reason === 'replaced'
      ? () => handOverFinalCounts().catch((err: unknown) => app.log.warn({ event: 'metrics.handover_failed', err }, 'this worker’s counts could not be handed to the primary'))
      : undefined,
  });
  // `on`, not `once`: a second signal while stopping must not fall back to the default (an immediate exit).
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.once('disconnect', () => void stop('primary gone'));
  process.on('message', (m: unknown) => { if (isLanyardMessage(m, RETIRE.lanyard)) void stop('replaced'); });

  await app.listen({ port: config.port, host: config.host });
  process.send?.(READY);
}
