import { compareBinary } from '../store/collation.js';

/**
 * Rows put in order here rather than by their statement. SQLite (3.54, as better-sqlite3 bundles it) prepares
 * a statement again at every run when the statement has a parameter and sorts in a temporary B-tree (an
 * ORDER BY, GROUP BY or DISTINCT that no index provides): 3–5 µs a run, more than the lookup itself, and some
 * of them ran on every token request and sign-in (a client's secrets, the user's school, the school's apps).
 * The lists are short, so sorting them here costs less. test/unit/adapters/sqlite-statements.test.ts keeps
 * every statement of the SQLite store free of such sorts, but the school search (adapters/sqlite/directory.ts).
 *
 * The order is SQLite's: NULL first, then numbers, then text in BINARY order (adapters/store/collation.ts, as
 * the Redis store orders), then blobs.
 */
export function inOrder<T extends object>(rows: T[], ...columns: (keyof T & string)[]): T[] {
  return rows.sort((a, b) => {
    for (const column of columns) {
      const order = compareValues(a[column], b[column]);
      if (order !== 0) return order;
    }
    return 0;
  });
}

const rank = (v: unknown): number =>
  v === null || v === undefined ? 0 : typeof v === 'number' || typeof v === 'bigint' ? 1 : typeof v === 'string' ? 2 : 3;

function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (ra === 2) return a === b ? 0 : compareBinary(a as string, b as string);
  if (ra === 3) return Buffer.compare(a as Buffer, b as Buffer);
  return 0;
}
