import type Database from 'better-sqlite3';

/**
 * Waiting for another process's write lock, in steps that fit how long SQLite holds it.
 *
 * SQLite has one write lock per database; Lanyard's worker processes share it. A commit holds it for tens
 * of microseconds, but SQLite's own busy handler (`busy_timeout`) sleeps 1, 2, 5, 10, 15, 20, 25 ms… between
 * tries, inside the synchronous call, so a worker that met the lock taken answered nothing for milliseconds
 * while the lock was free again long before (bench/HISTORY.md). Here the connection's busy handler is
 * off (`busy_timeout = 0`: SQLITE_BUSY at once) and each statement or outermost transaction is tried again
 * after 25 µs, doubling to at most 1 ms, until `timeoutMs`, after which the SQLITE_BUSY error stands (a 503).
 *
 * Trying again is safe: an autocommit statement or a transaction that failed with SQLITE_BUSY changed
 * nothing (better-sqlite3 rolls a transaction back). Statements inside a transaction are not tried on their
 * own: the transaction is, from its start, and Lanyard's transaction functions change nothing but the
 * database. Most are BEGIN IMMEDIATE, which meets the lock before the function runs; the two deferred ones
 * (a client's deletion, a connection's check-then-write) read first, and their write's SQLITE_BUSY or
 * SQLITE_BUSY_SNAPSHOT, which SQLite's own handler never waited on (it was a 503 at once), is now a retry.
 * Most writes go through the write batch (write-batch.ts), one BEGIN IMMEDIATE transaction per event-loop turn.
 *
 * `exec` is not retried (a script's statements commit one by one); Lanyard runs it only in migrations,
 * before this. A read can meet SQLITE_BUSY only in rare cases (another connection recovering the log after
 * a crash); `iterate` and `pragma` are not retried, and such a read is now a 503 at once.
 */
const FIRST_WAIT_MS = 0.025;
const LONGEST_WAIT_MS = 1;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** The error's code (better-sqlite3's SQLITE_… codes), when it has one. */
export const errorCode = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

const isBusy = (err: unknown): boolean => errorCode(err)?.startsWith('SQLITE_BUSY') === true;

/** `run()`, and again while SQLite answers SQLITE_BUSY, for at most `timeoutMs`. */
export function retryWhileBusy<T>(run: () => T, timeoutMs: number): T {
  const deadline = performance.now() + timeoutMs;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      return run();
    } catch (err) {
      if (!isBusy(err) || performance.now() + wait > deadline) throw err;
      Atomics.wait(sleeper, 0, 0, wait); // a short sleep, without SQLite's 1 ms floor
    }
  }
}

const STATEMENT_METHODS = ['run', 'get', 'all'] as const;

/**
 * Turns SQLite's busy handler off for `db` and makes its statements' run/get/all (prepared from now on) and
 * its transactions retry while busy instead. Call after opening and migrating, before preparing statements.
 */
export function retryBusyWrites(db: Database.Database, timeoutMs: number): void {
  db.pragma('busy_timeout = 0');
  const outermost = <T>(run: () => T): T => (db.inTransaction ? run() : retryWhileBusy(run, timeoutMs));

  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source) as unknown as Record<(typeof STATEMENT_METHODS)[number], (...a: unknown[]) => unknown>;
    for (const method of STATEMENT_METHODS) {
      const original = statement[method].bind(statement);
      statement[method] = (...args: unknown[]) => outermost(() => original(...args));
    }
    return statement;
  }) as typeof db.prepare;

  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...a: unknown[]) => unknown) => {
    const tx = transaction(fn);
    const wrap = (variant: (...a: unknown[]) => unknown) => (...args: unknown[]) => outermost(() => variant(...args));
    return Object.assign(wrap(tx), {
      default: wrap(tx.default), deferred: wrap(tx.deferred), immediate: wrap(tx.immediate), exclusive: wrap(tx.exclusive),
    });
  }) as typeof db.transaction;
}
