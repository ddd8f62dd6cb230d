/**
 * SQLite's collations and order, so the Redis store matches and orders exactly as the SQLite one does, and the
 * SQLite store can order a short list itself rather than in a statement (test/unit/adapters/sqlite-statements
 * .test.ts says why): NOCASE folds ASCII letters only (Lua's string.lower in Redis does the same), BINARY
 * compares UTF-8 bytes.
 */

export const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

export const compareBinary = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

export const compareNoCase = (a: string, b: string): number => compareBinary(asciiLower(a), asciiLower(b));

/** A value as SQLite stores it (undefined: a missing field, ordered as NULL). */
export type SqlValue = string | number | bigint | Buffer | null | undefined;

const rank = (v: SqlValue): number =>
  v === null || v === undefined ? 0 : typeof v === 'number' || typeof v === 'bigint' ? 1 : typeof v === 'string' ? 2 : 3;

/** SQLite's ORDER BY: NULL first, then numbers, then text (BINARY), then blobs. */
export function compareSqlValues(a: SqlValue, b: SqlValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return a! < b! ? -1 : a! > b! ? 1 : 0;
  if (ra === 2) return a === b ? 0 : compareBinary(a as string, b as string);
  if (ra === 3) return Buffer.compare(a as Buffer, b as Buffer);
  return 0;
}

/** Orders by each key in turn, as SQLite's ORDER BY does (text: BINARY). */
export const byKeys = <T>(...keys: ((v: T) => SqlValue)[]) => (a: T, b: T): number => {
  for (const key of keys) {
    const c = compareSqlValues(key(a), key(b));
    if (c) return c;
  }
  return 0;
};
