import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** How often the background thread moves the write-ahead log into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1_000;
/**
 * The connection's own checkpoint, in pages of the WAL (SQLite's default is 1,000): only a fallback for
 * when the background thread falls behind, so that the log stays bounded (about 40 MiB) whatever happens.
 */
export const FALLBACK_CHECKPOINT_PAGES = 10_000;

/**
 * The thread: its own connection to the file, a PASSIVE checkpoint every interval (it never waits for, or
 * blocks, the writers and readers of other connections; SQLITE_BUSY from another checkpointer is simply
 * tried again next time). CommonJS, run with `eval`, so that it needs no file of its own in the build.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closing: next time */ }
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); process.exit(0); });
`;

/**
 * A connection whose log another thread checkpoints, this process's (checkpointInBackground) or another
 * process's on the same machine (the cluster primary's, for its workers): its own checkpoint is only the
 * fallback. Once checkpointed, the log starts again from its beginning: cut it back then rather than keep
 * the file at its largest. Space is taken as it is written, so a full disk is found by the write that needs
 * it (503, /readyz false) and not a while later by a checkpoint nobody waits for.
 */
export function leaveCheckpointsToAThread(db: Database.Database): void {
  db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  db.pragma('journal_size_limit = 0');
}

/**
 * SQLite checkpoints the write-ahead log inside whichever write crosses the threshold: that write copies
 * the log into the database and syncs it to disk, stalling the event loop for milliseconds (measured: half
 * of all the time spent writing). Here a thread of its own does it every second instead, so that writes on
 * the event loop only append to the log. Returns the function that stops the thread.
 */
export function checkpointInBackground(db: Database.Database, path: string, intervalMs = CHECKPOINT_INTERVAL_MS): () => Promise<void> {
  leaveCheckpointsToAThread(db);
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = new Worker(THREAD, { eval: true, workerData: { driver, path, intervalMs } });
  thread.unref(); // never what keeps a process (a CLI command) alive
  thread.on('error', () => db.open && db.pragma('wal_autocheckpoint = 1000')); // without the thread: SQLite's own
  // Listened for from the start: a thread that died earlier (its error above) has exited already, and
  // waiting for an exit still to come would never end.
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  let stopping = false;
  return () => {
    if (!stopping) {
      stopping = true;
      thread.ref(); // waited for now: its connection must be closed before the store's
      thread.postMessage('stop');
    }
    return exited;
  };
}
