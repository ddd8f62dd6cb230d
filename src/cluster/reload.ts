import type { Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { writesClients } from '../clients/config-revision.js';
import { checkConfig } from '../config/config.js';
import { applyConfigFile } from '../startup/services.js';
import type { Log } from '../startup/startup.js';
import type { WorkerPool } from './worker-pool.js';

/**
 * SIGHUP to the primary of `lanyard serve` with worker processes: the configuration file is read and checked
 * again (as at startup: every problem with its JSON path), written into the store (organisations, users,
 * clients, connections), and then the workers are replaced one at a time, each new one listening before the
 * old one drains its connections and stops (src/http/graceful-close.ts drain). A file with problems or a store that
 * cannot be written leaves the running workers serving, and says why; a new worker that cannot start stops
 * the reload there, the workers replaced so far running the new file.
 * Environment variables are the process's own and stay as they were: changing one needs a restart.
 * Resolves with whether everything was reloaded.
 */
export async function reloadWorkers(o: { pool: WorkerPool; store: Store; clock: Clock; log: Log; instance?: string }): Promise<boolean> {
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
    const outcome = await applyConfigFile(o.store, config, o.clock, o.instance);
    if (!writesClients(outcome)) {
      log.warn({ event: 'config.revision', outcome }, `the file's clients were not written: its revision is ${outcome === 'older' ? 'older than the store\'s' : 'the store\'s number with other contents, which another instance runs'}; bump "revision" (docs/operations.md → Rolling configuration changes)`);
    }
  } catch (err) {
    if (o.pool.stopping) return abandoned(log);
    log.error({ event: 'reload.failed', err }, 'not reloaded, the running workers carry on: the configuration could not be written into the store');
    return false;
  }
  try {
    const replaced = await o.pool.roll();
    if (o.pool.stopping) return abandoned(log);
    log.info({ event: 'reloaded', replaced, pids: o.pool.pids }, `configuration reloaded: ${replaced} worker processes replaced`);
    return true;
  } catch (err) {
    if (o.pool.stopping) return abandoned(log);
    log.error({ event: 'reload.failed', err }, 'a new worker stopped while starting (its reason is above), so the reload stopped there: the file is in the store, and the workers replaced so far run it while the others carry on with the old one, until the next reload');
    return false;
  }
}

const abandoned = (log: Log): false => {
  log.info({ event: 'reload.abandoned' }, 'Lanyard is stopping: the reload ends here');
  return false;
};

/**
 * Runs `reload` for each SIGHUP (`request`), one at a time: a signal that arrives while one runs asks for
 * one more afterwards (however many arrive), since the file may have changed again in between. `settled`
 * resolves once none is running (stopping waits for it, so that the store is not closed under a reload).
 */
export function oneReloadAtATime(reload: () => Promise<unknown>): { request: () => void; settled: () => Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  const run = async (): Promise<void> => {
    do {
      again = false;
      try {
        await reload();
      } catch {
        // reloadWorkers logs its own failures; a reload must never take the primary down.
      }
    } while (again);
    running = undefined;
  };
  return {
    request: () => {
      if (running) again = true;
      else running = run();
    },
    settled: async () => { await running; },
  };
}
