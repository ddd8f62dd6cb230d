import type { AppRequests } from './store/app-requests.js';
import type { AuditTrail } from './store/audit.js';
import type { Badges } from './store/badges.js';
import type { ClassLinks } from './store/class-links.js';
import type { Clients } from './store/clients.js';
import type { ConfigRevisions } from './store/config-revisions.js';
import type { Connections } from './store/connections.js';
import type { Counters, Locks } from './store/counters.js';
import type { Developers } from './store/developers.js';
import type { Directory } from './store/directory.js';
import type { HelpCodes } from './store/help-codes.js';
import type { KeyRecords } from './store/keys.js';
import type { ClientLogos } from './store/logos.js';
import type { OidcRecords } from './store/oidc-records.js';
import type { RosterStore } from './store/roster.js';
import type { Settings } from './store/settings.js';
import type { Staff } from './store/staff.js';
import type { Transfer } from './store/transfer.js';

/**
 * The one storage contract every backend implements (docs/storage.md), one file per domain in
 * adapters/store/. Backends: sqlite/ (embedded default), redis/ (many instances). Every backend passes
 * the contract suite in test/contract/, one file per domain.
 */
export * from './store/app-requests.js';
export * from './store/audit.js';
export * from './store/badges.js';
export * from './store/clients.js';
export * from './store/config-revisions.js';
export * from './store/connections.js';
export * from './store/counters.js';
export * from './store/developers.js';
export * from './store/directory.js';
export * from './store/help-codes.js';
export * from './store/class-links.js';
export * from './store/keys.js';
export * from './store/logos.js';
export * from './store/oidc-records.js';
export * from './store/roster.js';
export * from './store/settings.js';
export * from './store/staff.js';
export * from './store/transfer.js';

export interface Store extends Directory, Clients, ClientLogos, ConfigRevisions, Connections, Developers, KeyRecords, RosterStore, Settings, Badges, Counters, Locks, Transfer,
  Staff, HelpCodes, ClassLinks, AppRequests, AuditTrail {
  readonly oidc: OidcRecords;
  /** `sqlite` or `redis`: for logs and readiness. */
  readonly backend: string;
  /** Deletes expired oidc records, counters, locks and help codes, and class links a day after they ended; returns how many. Safe on every instance at once. */
  sweep(): Promise<number>;
  /**
   * Makes sure what was deleted is no longer in the store's files: SQLite zeroes deleted rows as it goes
   * (secure_delete) and here folds its write-ahead log into the database and empties it. Absent on Redis, whose
   * deleted keys are gone from memory (its append-only file is rewritten by BGREWRITEAOF).
   */
  scrub?(): Promise<void>;
  /** Proves the store can be read and written now; throws otherwise (readiness: /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
