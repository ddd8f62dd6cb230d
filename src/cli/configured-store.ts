import { withStore } from '../../adapters/open-store.js';
import type { Store } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';

/** The store the server uses (LANYARD_STORE, with its Redis key prefix), opened for one command. */
export const withConfiguredStore = <T>(config: Config, clock: Clock, work: (store: Store) => Promise<T>) =>
  withStore(config.storeUrl, clock, work, { redisPrefix: config.redisPrefix });
