import type { Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { checkConfig } from '../config.js';
import { applyConfigFile } from '../services.js';
import type { Log } from '../startup.js';
import type { WorkerPool } from './worker-pool.js';

/**
 * SIGHUP to the primary of `lanyard serve` with worker processes: the configuration file is read and checked
 * again (as at startup: every problem with its JSON path), written into the store (organisations, users,
 * clients, connections), and then the workers are replaced one at a time, each new one listening before the
 * old one finishes its requests and stops, so that no request is refused. A file with problems, a store that
 * cannot be written or a new worker that cannot start leaves the running workers serving, and says why.
 * Environment variables are the process's own and stay as they were: changing one needs a restart.
 * Resolves with whether everything was reloaded.
 */
export async function reloadWorkers(o: { pool: WorkerPool; store: Store; clock: Clock; log: Log }): Promise<boolean> {
  const { log } = o;
  log.info({ event: 'reload.started' }, 'SIGHUP: reloading the configuration file, then replacing the workers one at a time');
  let checked: ReturnType<typeof checkConfig>;
  try {
    checked = checkConfig();
  } catch (err) {
    log.error({ event: 'reload.failed', err }, 'not reloaded, the running workers carry on: the configuration could not be read');
    return false;
  }
  const { config, problems } = checked;
  if (!config) {
    log.error({ event: 'reload.failed', problems }, `not reloaded, the running workers carry on: the configuration has problems:\n  ${problems.join('\n  ')}`);
    return false;
  }
  try {
    await applyConfigFile(o.store, config, o.clock);
  } catch (err) {
    log.error({ event: 'reload.failed', err }, 'not reloaded, the running workers carry on: the configuration could not be written into the store');
    return false;
  }
  try {
    const replaced = await o.pool.roll();
    log.info({ event: 'reloaded', replaced, pids: o.pool.pids }, `configuration reloaded: ${replaced} worker processes replaced`);
    return true;
  } catch (err) {
    log.error({ event: 'reload.failed', err }, 'a new worker stopped while starting (its reason is above): the workers still running carry on');
    return false;
  }
}

/**
 * Runs `reload` for each SIGHUP, one at a time: a signal that arrives while one runs asks for one more
 * afterwards (however many arrive), since the file may have changed again in between.
 */
export function oneReloadAtATime(reload: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    running = true;
    try {
      do {
        again = false;
        await reload();
      } while (again);
    } finally {
      running = false;
    }
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}
