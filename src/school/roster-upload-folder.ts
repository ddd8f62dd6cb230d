import { lstat, chmod, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeDataDir } from '../../adapters/open-store.js';
import { LanyardError } from '../errors.js';

/**
 * Where the console keeps uploaded roster files until they are applied (docs/operations.md → Data directory):
 * one folder that every worker process of the machine reads, so that the Apply of a plan may reach any of
 * them. With a SQLite store, `roster-uploads` in the data directory (the database's folder); with a store
 * that names no folder of this machine (Redis, `sqlite::memory:`), `lanyard-roster-uploads-<uid>` in the
 * system's temporary folder. Private (mode 0700), and refused when it is anything else: a link, someone
 * else's, or open to others.
 */

/** A folder of uploads: the id's folder name (the upload's random id). */
const UPLOAD_ID = /^[A-Za-z0-9_-]{22}$/;

const uid = (): number => process.getuid?.() ?? 0;

/** The uploads' folder for the store at `storeUrl` (not created). */
export function rosterUploadsFolder(storeUrl: string): string {
  const dataDir = storeDataDir(storeUrl);
  return dataDir === undefined ? join(tmpdir(), `lanyard-roster-uploads-${uid()}`) : join(dataDir, 'roster-uploads');
}

/** Makes the folder (mode 0700) unless it is there, and checks that it is this user's own, private folder. */
export async function privateFolder(path: string): Promise<string> {
  try {
    await mkdir(path, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const s = await lstat(path);
  if (!s.isDirectory() || s.uid !== uid()) {
    throw new LanyardError('upload_folder', `the roster uploads' folder ${path} is not a folder of this user's own: remove it`, 500);
  }
  if (s.mode & 0o077) await chmod(path, 0o700);
  return path;
}

/** When the upload's folder or file was last written (ms since the epoch, the file system's clock). */
async function lastWritten(dir: string): Promise<number> {
  let latest = (await stat(dir)).mtimeMs;
  for (const name of await readdir(dir)) latest = Math.max(latest, (await stat(join(dir, name))).mtimeMs);
  return latest;
}

/**
 * Deletes the uploads last written more than `olderThanMs` ago (by the file system's clock, as their files
 * were written): those applied or discarded went at once, so these are the expired ones, and those a stopped
 * process left. Never throws (another process may be deleting the same ones).
 */
export async function sweepUploads(root: string, olderThanMs: number): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (!UPLOAD_ID.test(name)) continue;
    const dir = join(root, name);
    try {
      if (now - (await lastWritten(dir)) > olderThanMs) await rm(dir, { recursive: true, force: true });
    } catch {
      // Gone meanwhile, or being deleted by another process.
    }
  }
}
