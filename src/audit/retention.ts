import type { AuditTrail } from '../../adapters/store.js';
import { type Clock, daysAgo } from '../clock.js';

/**
 * The audit trail is kept `audit.retention_days` (docs/storage.md → The audit trail): the running server deletes
 * older events once an hour (src/startup/startup.ts), every instance alike (a purge is idempotent). Resolves
 * how many rows went.
 */
export const purgeAudit = (store: Pick<AuditTrail, 'purgeAuditBefore'>, clock: Clock, retentionDays: number): Promise<number> =>
  store.purgeAuditBefore(daysAgo(clock, retentionDays));
