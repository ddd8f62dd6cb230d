/**
 * How much a roster reader takes in before it refuses: sizes guard the memory and the disk of the machine
 * that imports (a zip bomb expands to gigabytes from a few kilobytes), the error cap keeps a broken export's
 * report readable. Tests pass smaller limits.
 */
export interface ReadLimits {
  /** The largest file read, in bytes (uncompressed). */
  fileBytes: number;
  /** All the files read from one export together, in bytes (uncompressed). */
  totalBytes: number;
  /** Errors kept; one more entry then says how many were left out. */
  errors: number;
  /** Entries a zip may list (its central directory is read whole). */
  zipEntries: number;
  /** The longest record of a CSV file, in characters (an unclosed quote would otherwise swallow the file). */
  recordChars: number;
}

const MiB = 1024 * 1024;

export const READ_LIMITS: ReadLimits = {
  fileBytes: 512 * MiB,
  totalBytes: 2048 * MiB,
  errors: 1000,
  zipEntries: 10_000,
  recordChars: 1 * MiB,
};
