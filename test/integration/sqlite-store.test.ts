import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
