import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, linkSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Files that hold secrets for people to print (emoji cards, password letters, badge sheets): readable by
 * their owner only (mode 0600), never half written, and never put over an existing file unless asked to
 * (`--force`): yesterday's cards for another class may still be waiting at the printer.
 */

/** Refuses, before anything is changed, a path the file could not be written to. */
export function checkPrivateFile(path: string, o: { force: boolean }): void {
  const fail = (why: string) => new Error(`cannot write ${path}: ${why}`);
  const folder = dirname(resolve(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw fail(`there is no folder ${folder}`);
  if (existsSync(path) && statSync(path).isDirectory()) throw fail('that is a folder');
  if (existsSync(path) && !o.force) throw fail('the file exists (choose another name, or --force to replace it)');
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw fail('permission denied');
  }
}

/** A name beside `path` for a file being written (hidden, unique, removed or renamed when done). */
const besides = (path: string) => join(dirname(resolve(path)), `.${basename(path)}.${randomBytes(6).toString('hex')}.partial`);

/**
 * Writes `data` beside `path` (mode 0600), runs `commit` (what makes the secrets in it real), then puts the
 * file at `path`: renamed over it with `force`, else linked, which fails rather than replace a file that
 * appeared meanwhile. When `commit` fails, the file is removed and nothing is at `path`: `commit` must fail
 * only when it made nothing real (a part made real is a result, for the caller to report). When the file
 * cannot be put in place after `commit`, the error says where it is: what it holds is in force.
 */
export async function writePrivateFile<T>(path: string, data: Uint8Array, o: { force: boolean }, commit: () => Promise<T>): Promise<T> {
  const temporary = besides(path);
  writeFileSync(temporary, data, { mode: 0o600, flag: 'wx' });
  let result: T;
  try {
    result = await commit();
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
  try {
    if (o.force) renameSync(temporary, path);
    else {
      linkSync(temporary, path);
      unlinkSync(temporary);
    }
  } catch (err) {
    throw new Error(`the credentials were issued, but the file could not be put at ${path} (${(err as Error).message}): it is ${temporary}`);
  }
  return result;
}

/**
 * Replaces the file at `path` (put there by writePrivateFile) with `data`, mode 0600, whole or not at all:
 * written beside it, then renamed over it. When that fails, the file at `path` is as it was.
 */
export function replacePrivateFile(path: string, data: Uint8Array): void {
  const temporary = besides(path);
  try {
    writeFileSync(temporary, data, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, path);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
}
