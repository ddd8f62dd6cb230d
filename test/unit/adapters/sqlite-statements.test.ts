import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { byKeys } from '../../../adapters/store/collation.js';
import { openWatchedSqliteStore } from '../../helpers/watched-sqlite-store.js';

/**
 * SQLite (3.54, as better-sqlite3 bundles it) prepares a statement again at every run when the statement has a
 * parameter and sorts in a temporary B-tree (an ORDER BY, GROUP BY or DISTINCT that no index provides): 3–5 µs
 * a run, more than the lookup itself, and such statements ran on every token request and sign-in (a client's
 * secrets, the user's school, the school's apps). So no statement of the SQLite store may, but the school
 * search (adapters/sqlite/directory.ts says why); the short lists that need an order are sorted by byKeys
 * (adapters/store/collation.ts), in SQLite's own order, as the Redis store sorts them.
 */

/** Every statement the SQLite store prepares when it opens, as it prepares it. */
function storeStatements(t: Test): { sql: string[]; db: Database.Database } {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-statements-'));
  const { store, statements } = openWatchedSqliteStore(join(dir, 'lanyard.db'));
  const db = new Database(join(dir, 'lanyard.db'), { readonly: true });
  t.teardown(async () => { db.close(); await store.close(); rmSync(dir, { recursive: true, force: true }); });
  return { sql: statements, db };
}

/** Null for each of the statement's parameters, named (@name) or positional (?), outside string literals. */
function nullParameters(sql: string): unknown[] {
  const code = sql.replace(/'(?:[^']|'')*'/g, "''");
  const named = [...new Set([...code.matchAll(/[@:$]([A-Za-z_]\w*)/g)].map((m) => m[1]!))];
  if (named.length) return [Object.fromEntries(named.map((name) => [name, null]))];
  return Array.from(code.matchAll(/\?/g), () => null);
}

/** The school search: it scans every school whichever way, and SQLite's sort keeps only the first `limit`. */
const MAY_SORT = [/^SELECT \* FROM organisations\s+WHERE instr\(lower\(name\)/];

t.test('no statement of the SQLite store with a parameter sorts in a temporary B-tree (but the school search)', async (t) => {
  const { sql, db } = storeStatements(t);
  const queries = sql.filter((s) => /^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i.test(s));
  t.equal(queries.filter((query) => MAY_SORT.some((allowed) => allowed.test(query))).length, MAY_SORT.length, 'the search is among them');
  t.ok(queries.length > 60, `the store's statements were seen (${queries.length})`);
  let parameterised = 0;
  for (const query of queries) {
    const parameters = nullParameters(query);
    if (parameters.length === 0 || MAY_SORT.some((allowed) => allowed.test(query))) continue;
    parameterised++;
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${query}`).all(...parameters) as { detail: string }[];
    const sorts = plan.map((step) => step.detail).filter((detail) => detail.includes('TEMP B-TREE'));
    t.same(sorts, [], query.replace(/\s+/g, ' ').slice(0, 110));
  }
  t.ok(parameterised > 50, `statements with parameters checked (${parameterised})`);
});

t.test("byKeys puts rows in SQLite's own ORDER BY order", async (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  db.exec('CREATE TABLE r (n, a, b)');
  const values = [null, -1, 0, 2.5, 10, 'B', 'a', 'b', 'A', 'Zeta', 'alpha', 'é', 'z', '\u{1F600}', '\uFFFD', 'ab', 'aB', ''];
  const insert = db.prepare('INSERT INTO r (n, a, b) VALUES (?, ?, ?)');
  values.forEach((value, n) => insert.run(n, value, values[(n * 7) % values.length]));
  type Row = { n: number; a: string | number | null; b: string | number | null };
  const rows = () => db.prepare('SELECT n, a, b FROM r').all() as Row[];
  const order = (list: { n: number }[]) => list.map((row) => row.n);

  t.same(order(rows().sort(byKeys((r) => r.a, (r) => r.n))), order(db.prepare('SELECT n FROM r ORDER BY a, n').all() as { n: number }[]), 'BINARY');
  t.same(order(rows().sort(byKeys((r) => r.b, (r) => r.a, (r) => r.n))), order(db.prepare('SELECT n FROM r ORDER BY b, a, n').all() as { n: number }[]), 'two columns');
});
