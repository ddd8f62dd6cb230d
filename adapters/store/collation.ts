/**
 * SQLite's collations, so the Redis store matches and orders exactly as the SQLite one does, and the SQLite
 * store can order a short list itself (adapters/sqlite/in-order.ts): NOCASE folds
 * ASCII letters only (Lua's string.lower in Redis does the same), BINARY compares UTF-8 bytes.
 */

export const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

export const compareBinary = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

export const compareNoCase = (a: string, b: string): number => compareBinary(asciiLower(a), asciiLower(b));

/** Orders by each key in turn (BINARY). */
export const byKeys = <T>(...keys: ((v: T) => string)[]) => (a: T, b: T): number => {
  for (const key of keys) {
    const c = compareBinary(key(a), key(b));
    if (c) return c;
  }
  return 0;
};
