import type Database from 'better-sqlite3';

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

/**
 * Group commit: the writes that requests ask for while the event loop handles one round of I/O are made in
 * one transaction, at the end of that round (`setImmediate`), and each caller's promise settles when it has
 * committed. A commit costs far more than a small write: it takes the file's one write lock, which every
 * worker process on the machine shares, and appends a log frame for every page it changed. One commit for
 * many writes does that once, and leaves the lock free for the other workers sooner (README → Performance).
 *
 * What a caller sees is unchanged: its promise settles after its write is durable, with the write's result
 * or error, and a write is visible to every read made after that. Each write runs in a savepoint of its own,
 * so that one failing (a constraint, a bug) fails alone. An error that ends the whole transaction (the disk
 * full, an I/O error) fails every write in the batch, as it would have failed each of them. SQLITE_BUSY is
 * retried for the whole batch, from its start (busy-retry.ts: transactions are, and the batch's writes
 * change nothing but the database).
 */
export function batchWrites(db: Database.Database): WriteBatch {
  let waiting: Waiting[] = [];
  let scheduled: NodeJS.Immediate | undefined;

  const inSavepoint = db.transaction((fn: () => unknown) => fn());
  const runAll = db.transaction((batch: Waiting[]): Outcome[] => batch.map(({ fn }): Outcome => {
    try {
      return { ok: true, value: inSavepoint(fn) };
    } catch (err) {
      if (!db.inTransaction) throw err; // SQLite ended the transaction itself (full, I/O, busy): all fail
      return { ok: false, err };
    }
  }));

  const flush = (): void => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
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
