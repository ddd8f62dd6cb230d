import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Clock } from '../src/clock.js';
import { sqliteAppRequests } from './sqlite/app-requests.js';
import { sqliteAudit } from './sqlite/audit.js';
import { sqliteBadges } from './sqlite/badges.js';
import { sqliteClassLinks } from './sqlite/class-links.js';
import { retryBusyWrites } from './sqlite/busy-retry.js';
import { checkpointInBackground, leaveCheckpointsToAThread } from './sqlite/checkpointer.js';
import { sqliteClients } from './sqlite/clients.js';
import { sqliteConfigRevisions } from './sqlite/config-revisions.js';
import { sqliteConnections } from './sqlite/connections.js';
import { sqliteCounters } from './sqlite/counters.js';
import { sqliteDevelopers } from './sqlite/developers.js';
import { sqliteDirectory } from './sqlite/directory.js';
import { sqliteHelpCodes } from './sqlite/help-codes.js';
import { sqliteKeys } from './sqlite/keys.js';
import { sqliteLogos } from './sqlite/logos.js';
import { migrate } from './sqlite/migrate.js';
import { sqliteOidcRecords } from './sqlite/oidc-records.js';
import { sqliteRoster } from './sqlite/roster.js';
import { sqliteSettings } from './sqlite/settings.js';
import { sqliteStaff } from './sqlite/staff.js';
import { sqliteTransfer } from './sqlite/transfer.js';
import { batchWrites } from './sqlite/write-batch.js';
import type { Store } from './store.js';

/** How long a write waits for another process's write lock before giving up (SQLITE_BUSY → 503). */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Embedded default backend: one SQLite file (WAL), durable; one node, or several processes on one machine
 * sharing the file. Opening it runs the schema migrations (adapters/sqlite/migrate.ts); a thread of its own
 * keeps the write-ahead log short (adapters/sqlite/checkpointer.ts): one thread per machine is enough, so
 * `checkpointThread: false` (a cluster worker, whose primary runs it, or a CLI command) opens without it and
 * keeps only the connection's fallback checkpoint.
 * `path` is a file path or ':memory:'. The directory is created when missing.
 */
interface SqliteOptions {
  /** false: no checkpoint thread in this process (default true). */
  checkpointThread?: boolean;
  checkpointEveryMs?: number;
}

export function openSqliteStore(path: string, clock: Clock, o: SqliteOptions = {}): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // A deleted row's bytes are zeroed in its page (where that costs no extra write): a revoked or converted
    // record leaves nothing behind in the file (adapters/record-ids.ts).
    db.pragma('secure_delete = FAST');
    migrate(db, path);
    retryBusyWrites(db, BUSY_TIMEOUT_MS); // from here on: short waits, not SQLite's 1–25 ms sleeps (busy-retry.ts)
  } catch (err) {
    db.close();
    throw err;
  }
  let stopCheckpoints = async () => {};
  if (path !== ':memory:') {
    if (o.checkpointThread === false) leaveCheckpointsToAThread(db);
    else stopCheckpoints = checkpointInBackground(db, path, o.checkpointEveryMs);
  }

  const now = () => clock.now().getTime();
  const batch = batchWrites(db); // every write of protocol records, counters and locks, and what ends sessions
  const oidc = sqliteOidcRecords(db, now, batch);
  const { sweep: sweepCounters, ...counters } = sqliteCounters(db, now, batch);
  const { sweep: sweepOidc, ...oidcRecords } = oidc;
  const { sweep: sweepRevisions, ...configRevisions } = sqliteConfigRevisions(db, now);
  const { sweep: sweepHelpCodes, ...helpCodes } = sqliteHelpCodes(db, now, batch);
  const { sweep: sweepClassLinks, ...classLinks } = sqliteClassLinks(db, now);
  const probe = db.prepare(`INSERT INTO settings (name, value) VALUES ('readiness-probe', ?)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value`);
  return {
    backend: 'sqlite',
    oidc: oidcRecords,
    ...sqliteDirectory(db, batch),
    ...sqliteClients(db),
    ...sqliteLogos(db),
    ...configRevisions,
    ...sqliteConnections(db),
    ...sqliteAppRequests(db),
    ...sqliteDevelopers(db),
    ...sqliteKeys(db),
    ...sqliteBadges(db, now, batch),
    ...sqliteRoster(db, batch),
    ...helpCodes,
    ...classLinks,
    ...sqliteStaff(db),
    ...sqliteAudit(db, batch),
    ...counters,
    ...sqliteSettings(db),
    ...sqliteTransfer(db, now),
    async sweep() { return sweepOidc() + sweepCounters() + sweepRevisions() + sweepHelpCodes() + sweepClassLinks(); },
    async ping() { probe.run(String(now())); },
    async scrub() {
      batch.flush();
      if (path !== ':memory:') db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async close() {
      await stopCheckpoints();
      if (db.open) batch.flush(); // the writes still waiting, those asked for while closing too; later ones fail
      if (db.open) db.close();
    },
  };
}
