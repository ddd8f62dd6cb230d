import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Test } from 'tap';

/**
 * Another connection, in a thread of its own, holding the write lock for `holdMs` (it inserts a setting).
 * `committing`: the time (Date.now()) just before it commits, after which a write that waited can land.
 */
export async function holdWriteLock(t: Test, path: string, holdMs: number) {
  const worker = new Worker(`
    const { parentPort, workerData } = require('node:worker_threads');
    const db = new (require('better-sqlite3'))(workerData.path);
    db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT INTO settings (name, value) VALUES ('held', 'yes')").run();
    parentPort.postMessage('locked');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
    parentPort.postMessage({ committing: Date.now() });
    db.exec('COMMIT');
    db.close();
    parentPort.postMessage('released');`, { eval: true, workerData: { path, holdMs } });
  t.teardown(() => worker.terminate());
  await new Promise<void>((resolve, reject) => { worker.once('message', () => resolve()); worker.once('error', reject); });
  // Wrapped: an async function returning the promise itself would wait for it.
  return {
    released: new Promise<void>((resolve, reject) => {
      worker.on('message', (m) => m === 'released' && resolve());
      worker.once('error', reject);
    }),
    committing: new Promise<number>((resolve, reject) => {
      worker.on('message', (m: unknown) => typeof m === 'object' && m !== null && resolve((m as { committing: number }).committing));
      worker.once('error', reject);
    }),
  };
}

/** A database path in a directory of its own, removed after the test. */
export function newSqlitePath(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-busy-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'lanyard.db');
}
