import type { Readable } from 'node:stream';

/** One file of an export (a folder's file or a zip's entry). */
export interface ExportFile {
  /** Its name in the export (for messages and the digest). */
  name: string;
  /** Its size in bytes, uncompressed, as the folder or the zip's directory says. */
  size: number;
  open(): Promise<Readable>;
}

/**
 * The files at the top of an export, a folder or a zip, looked up by name without regard to case
 * (`Users.csv` is users.csv). Only plain files at the top are listed (in a zip, or in its one top folder).
 */
export interface ExportFiles {
  find(name: string): ExportFile | undefined;
  /** Every file listed, by name. */
  all(): ExportFile[];
  close(): Promise<void>;
}

/** A lookup of files by lower-case name. */
export function filesByName(files: ExportFile[], close: () => Promise<void>): ExportFiles {
  const byName = new Map(files.map((f) => [f.name.toLowerCase(), f]));
  return {
    find: (name) => byName.get(name.toLowerCase()),
    all: () => [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    close,
  };
}
