import { buildApp } from '../app.js';
import { useCredentialHashingSlots } from '../accounts/credential-hasher.js';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { closeGracefully } from '../graceful-close.js';
import { shortLogLines } from '../logging.js';
import { routeProviderConsole } from '../provider/console-bridge.js';
import { openServices } from '../services.js';
import { prettyOutput } from '../startup.js';
import { RemoteSlots } from './hashing-client.js';
import { READY } from './worker-pool.js';

/**
 * One worker process of `lanyard serve` (src/cluster/primary.ts forked it): the whole app on the shared
 * port and store, with argon2 slots shared through the primary. The primary has already written the
 * configuration into the store and made this month's key, so a worker only opens them. It stops gracefully on SIGTERM or SIGINT, and also when the primary is
 * gone (the IPC channel closes), so that no worker outlives it.
 */
export async function serveWorker(config: Config, out: NodeJS.WriteStream): Promise<void> {
  useCredentialHashingSlots(new RemoteSlots());
  const pretty = prettyOutput(config, out);
  const services = await openServices(config, systemClock, undefined, { setUp: false, checkpointThread: false });
  const app = await buildApp({ config, clock: systemClock, ...services, ...(pretty ? { logStream: shortLogLines(out) } : {}) });
  routeProviderConsole(app.log);

  let closing = false;
  const stop = async (reason: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ event: 'worker.stopping', reason }, 'worker shutting down');
    if (await closeGracefully(app)) app.log.warn({ event: 'shutdown.connections_cut' }, 'requests still open after the grace period were cut');
    await services.store.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('disconnect', () => void stop('primary gone'));
  process.on('SIGHUP', () => {}); // the primary's to act on (a terminal's hang-up reaches every process of it)

  await app.listen({ port: config.port, host: config.host });
  process.send?.(READY);
}
