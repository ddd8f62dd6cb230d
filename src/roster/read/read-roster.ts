import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ReadProgress, RosterSource } from '../source.js';
import { RosterReadError } from './errors.js';
import { folderFiles } from './folder-files.js';
import { READ_LIMITS, type ReadLimits } from './limits.js';
import { readOneFile } from './one-file.js';
import { readOneRoster } from './oneroster.js';
import { Problems } from './problems.js';
import { zipFiles } from './zip-files.js';

export interface ReadRosterOptions {
  /** The organisation a one-file CSV is for (`--org`); a OneRoster export names its own. */
  org?: string | undefined;
  progress?: ReadProgress | undefined;
  /** Smaller limits (tests); the defaults are READ_LIMITS. */
  limits?: Partial<ReadLimits> | undefined;
}

const NOT_A_ROSTER = 'is not a roster export: expected a OneRoster zip or folder (manifest.csv) or a one-file CSV; for the JSON format use `lanyard import`';

/** The first bytes of a file (at most `n`). */
async function head(path: string, n: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(n);
    const { bytesRead } = await file.read(buffer, 0, n, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** A CSV file's header names, in lower case (from its first 64 KiB). */
async function headerOf(path: string): Promise<string[]> {
  try {
    const rows = parse(await head(path, 64 * 1024), { bom: true, to_line: 1, relax_column_count: true, relax_quotes: true }) as string[][];
    return (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  } catch {
    return [];
  }
}

/**
 * Reads a roster from `path`, by what it is: a folder or a `.zip` is a OneRoster export (manifest.csv
 * first); a `.csv` file with a `username` column is a one-file CSV, for the organisation `o.org`. Anything
 * else, or a path that cannot be read, is a RosterReadError. A problem in the files themselves is not
 * thrown: it is in the result's `errors` (with the file, line, column and value), and nothing should be
 * applied while there is one. Nothing here touches the store.
 */
export async function readRoster(path: string, o: ReadRosterOptions = {}): Promise<RosterSource> {
  const limits: ReadLimits = { ...READ_LIMITS, ...o.limits };
  const problems = new Problems(limits.errors);
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') throw new RosterReadError(`${path}: no such file or folder`);
    throw err;
  });
  const label = basename(path);
  if (info.isDirectory()) {
    return readOneRoster(await folderFiles(path), { label, problems, limits, progress: o.progress });
  }
  if (!info.isFile()) throw new RosterReadError(`${path} ${NOT_A_ROSTER}`);
  const magic = (await head(path, 4)).toString('latin1');
  if (magic === 'PK\x03\x04' || magic === 'PK\x05\x06' || /\.zip$/i.test(path)) {
    const files = await zipFiles(path, label, problems, limits.zipEntries).catch((err: Error) => {
      throw new RosterReadError(`${path} is not a zip that can be read: ${err.message}`);
    });
    try {
      return await readOneRoster(files, { label, problems, limits, progress: o.progress });
    } finally {
      await files.close();
    }
  }
  if (/\.csv$/i.test(path)) {
    const header = await headerOf(path);
    if (header.includes('propertyname')) throw new RosterReadError(`${path} is a OneRoster manifest: give its folder, or the zip, to read the whole export`);
    if (header.includes('sourcedid')) throw new RosterReadError(`${path} is one file of a OneRoster export: give the whole export (its folder with manifest.csv, or the zip)`);
    if (header.includes('username')) {
      if (!o.org) throw new RosterReadError(`${path} is a one-file CSV: say which organisation it is for (--org)`, 'roster_org_needed');
      return readOneFile(createReadStream(path), label, o.org, { problems, limits, progress: o.progress });
    }
    throw new RosterReadError(`${path} ${NOT_A_ROSTER} (a one-file CSV has a username column)`);
  }
  throw new RosterReadError(`${path} ${NOT_A_ROSTER}`);
}
