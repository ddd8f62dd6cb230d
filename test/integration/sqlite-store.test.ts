import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { openSqliteStore } from '../../adapters/sqlite.js';
import { openStore } from '../../adapters/open-store.js';
import { ManualClock } from '../../src/clock.js';
import { storeContract } from '../contract/store-contract.js';

/** The shared storage contract against a real SQLite file (WAL) in a fresh temporary directory. */
storeContract(t, 'sqlite file', async (clock) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-store-'));
  // A directory that does not exist yet: the store creates it.
  const path = join(dir, 'data', 'nested', 'lanyard.db');
  return {
    store: openSqliteStore(path, clock),
    reopen: async (c) => openSqliteStore(path, c),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

t.test('sqlite: the data directory is created when missing', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'a', 'b', 'lanyard.db');
  t.notOk(existsSync(join(dir, 'a')), 'missing before');
  const store = await openStore(`sqlite:${path}`, new ManualClock());
  t.teardown(() => store.close());
  await store.getOrCreateSetting('probe', () => 'x');
  t.ok(existsSync(path), 'database file created in the new directory');
});

t.test('sqlite: a token adds no entry to the uid and user-code indexes, and lookups by them still use them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'lanyard.db');
  const store = openSqliteStore(path, new ManualClock());
  await store.oidc.upsert('AccessToken', 'at-1', { accountId: 'u_1', clientId: 'app', grantId: 'g_1' }, 3600);
  await store.oidc.upsert('Session', 'sess-1', { uid: 'uid-1', accountId: 'u_1' }, 3600);
  t.equal((await store.oidc.findByUid('Session', 'uid-1'))?.accountId, 'u_1', 'found by uid');
  await store.close();

  const db = new Database(path, { readonly: true });
  t.teardown(() => db.close());
  // The entries in an index's b-tree (its cells), as SQLite's dbstat table counts them.
  const entries = (index: string) => (db.prepare("SELECT coalesce(sum(ncell), 0) AS n FROM dbstat WHERE name = ? AND pagetype = 'leaf'").get(index) as { n: number }).n;
  t.equal(entries('oidc_records_uid'), 1, 'the uid index holds the session only');
  t.equal(entries('oidc_records_user_code'), 0, 'the user-code index holds nothing');
  const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('Session', 'x', 0) as { detail: string }[]).map((r) => r.detail).join('; ');
  t.match(plan('SELECT payload FROM oidc_records WHERE model = ? AND uid = ? AND expires_at > ?'), /USING INDEX oidc_records_uid/, 'find by uid uses its index');
  t.match(plan('SELECT payload FROM oidc_records WHERE model = ? AND user_code = ? AND expires_at > ?'), /USING INDEX oidc_records_user_code/, 'find by user code uses its index');
  const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'oidc_records_uid'").get() as { sql: string }).sql;
  t.match(sql, /WHERE uid IS NOT NULL/, 'the index is partial');
});
