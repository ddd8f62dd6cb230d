import type Database from 'better-sqlite3';
import { errorCode } from './busy-retry.js';

/** Runs a write inside the next batch's transaction; resolves with its result once that transaction commits. */
export interface WriteBatch {
  write<T>(fn: () => T): Promise<T>;
  /** Commits what is waiting now (before the connection closes). */
  flush(): void;
}

interface Waiting {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/** At most this many writes per transaction, so that one commit never holds the lock for long. */
const MOST_PER_COMMIT = 128;

/**
 * A write's own failure, undone by its savepoint, which leaves the others' writes to commit: a constraint,
 * or an error of Lanyard's code. Any other SQLite error (busy, full, I/O, …) fails the whole transaction.
 */
const failsAlone = (err: unknown): boolean => {
  const code = errorCode(err);
  return code === undefined || !code.startsWith('SQLITE_') || code.startsWith('SQLITE_CONSTRAINT');
};

/**
 * Group commit: the writes that requests ask for while the event loop handles one round of I/O are made in
 * one transaction, at the end of that round (`setImmediate`), and each caller's promise settles when it has
 * committed. A commit costs far more than a small write: it takes the file's one write lock, which every
 * worker process on the machine shares, and appends a log frame for every page it changed. One commit for
 * many writes does that once, and leaves the lock free for the other workers sooner (docs/performance.md → Performance).
 *
 * What a caller sees: its promise settles after its write has committed (WAL with synchronous=NORMAL, as
 * before: safe from a process's crash, not from a power cut), with the write's result or error. The write is
 * visible to reads from then on, not before. Writes run in the order asked for; a write made directly on the
 * connection, outside the batch, may come before writes asked for earlier that still wait, so everything that
 * deletes protocol records (ending sessions) goes through the batch too.
 *
 * Each write runs in a savepoint of its own, so that a constraint or an error of Lanyard's fails that write
 * alone. Any other SQLite error (the disk full, an I/O error, SQLITE_BUSY) fails the whole transaction, and
 * so every write in it; SQLITE_BUSY is first tried again for the whole batch, from its start (busy-retry.ts:
 * transactions are; the batch's writes change nothing but the database).
 */
export function batchWrites(db: Database.Database): WriteBatch {
  let waiting: Waiting[] = [];
  let scheduled: NodeJS.Immediate | undefined;

  const inSavepoint = db.transaction((fn: () => unknown) => fn());
  const runAll = db.transaction((batch: Waiting[]): Outcome[] => batch.map(({ fn }): Outcome => {
    try {
      return { ok: true, value: inSavepoint(fn) };
    } catch (err) {
      if (!db.inTransaction || !failsAlone(err)) throw err; // the whole transaction fails, rolled back
      return { ok: false, err };
    }
  }));

  const commit = (batch: Waiting[]): void => {
    let outcomes: Outcome[];
    try {
      outcomes = runAll.immediate(batch);
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    batch.forEach((w, i) => {
      const o = outcomes[i] as Outcome;
      if (o.ok) w.resolve(o.value);
      else w.reject(o.err);
    });
  };

  const flush = (): void => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    const all = waiting;
    waiting = [];
    for (let from = 0; from < all.length; from += MOST_PER_COMMIT) commit(all.slice(from, from + MOST_PER_COMMIT));
  };

  return {
    write<T>(fn: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.push({ fn, resolve: resolve as (value: unknown) => void, reject });
        scheduled ??= setImmediate(flush);
      });
    },
    flush,
  };
}
