import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import yazl from 'yazl';
import { projectRoot } from '../../src/package-files.js';

/** The hand-written exports in test/fixtures/roster/. */
export const rosterFixture = (name: string): string => join(projectRoot, 'test/fixtures/roster', name);

/** A temporary folder removed after the test. */
export function tempDir(t: Test, prefix = 'lanyard-roster-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** CSV text as a spreadsheet saves it: a UTF-8 byte-order mark and CRLF line ends. */
export const excelCsv = (lines: string[]): string => `\uFEFF${lines.join('\r\n')}\r\n`;

/** Writes `files` (name → text) into a new folder under `dir`; returns the folder. */
export function writeExport(dir: string, name: string, files: Record<string, string>): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  return folder;
}

/** A copy of a fixture export with some files replaced (text) or removed (null). */
export function variantOf(dir: string, fixture: string, name: string, changes: Record<string, string | null>): string {
  const files: Record<string, string> = {};
  for (const file of readdirSync(rosterFixture(fixture))) files[file] = readFileSync(join(rosterFixture(fixture), file), 'utf8');
  for (const [file, text] of Object.entries(changes)) {
    if (text === null) delete files[file];
    else files[file] = text;
  }
  return writeExport(dir, name, files);
}

/**
 * Zips the files of a folder with yazl (deflated) into `zipPath`, each under `prefix` (e.g. `export/` for a
 * zip made of the folder itself). `extra` adds entries by name and text.
 */
export async function zipFolder(folder: string, zipPath: string, o: { prefix?: string; extra?: Record<string, string> } = {}): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const file of readdirSync(folder).sort()) zip.addFile(join(folder, file), `${o.prefix ?? ''}${file}`);
  for (const [name, text] of Object.entries(o.extra ?? {})) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(zipPath)).on('close', resolve).on('error', reject);
  });
  return zipPath;
}

/**
 * Renames an entry inside a zip written by zipFolder, in its local header and the central directory (the
 * same length: names are not covered by a checksum), to make names yazl refuses to write (`../x.csv`).
 */
export function renameZipEntry(zipPath: string, from: string, to: string): void {
  if (from.length !== to.length) throw new Error('renameZipEntry: the names must be of one length');
  const bytes = readFileSync(zipPath);
  const a = Buffer.from(from);
  let at = bytes.indexOf(a);
  let n = 0;
  while (at !== -1) {
    Buffer.from(to).copy(bytes, at);
    n++;
    at = bytes.indexOf(a, at + a.length);
  }
  if (n < 2) throw new Error(`renameZipEntry: ${from} found ${n} time(s)`);
  writeFileSync(zipPath, bytes);
}

/**
 * Makes a zip's central directory understate an entry's uncompressed size (as a zip bomb would, to slip
 * past a size check made on the directory alone).
 */
export function understateZipEntry(zipPath: string, name: string, size: number): void {
  const bytes = readFileSync(zipPath);
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = bytes.indexOf(signature); at !== -1; at = bytes.indexOf(signature, at + 4)) {
    const length = bytes.readUInt16LE(at + 28);
    if (bytes.subarray(at + 46, at + 46 + length).toString() === name) {
      bytes.writeUInt32LE(size, at + 24);
      writeFileSync(zipPath, bytes);
      return;
    }
  }
  throw new Error(`understateZipEntry: no ${name}`);
}
