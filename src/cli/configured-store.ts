import { withStore } from '../../adapters/open-store.js';
import type { Store } from '../../adapters/store.js';
import { AuditLog } from '../audit/audit-log.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { Clock } from '../clock.js';
import { auditSettings } from '../config/audit.js';
import type { Config } from '../config/config.js';
import { commandLogger } from '../logging.js';

/** The store the server uses (LANYARD_STORE, with its Redis key prefix), opened for one command. */
export const withConfiguredStore = <T>(config: Config, clock: Clock, work: (store: Store) => Promise<T>) =>
  withStore(config.storeUrl, clock, work, { redisPrefix: config.redisPrefix });

/**
 * The same, with an audit recorder for what the command changes (docs/storage.md → The audit trail): what it
 * recorded is written before the store closes, also when the command fails part-way.
 */
export const withAuditedStore = <T>(config: Config, clock: Clock, work: (store: Store, audit: AuditRecorder) => Promise<T>) =>
  withConfiguredStore(config, clock, async (store) => {
    const audit = new AuditLog({ store, clock, log: commandLogger(), enabled: auditSettings(config.file).enabled });
    try {
      return await work(store, audit);
    } finally {
      await audit.close();
    }
  });
