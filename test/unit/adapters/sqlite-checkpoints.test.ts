import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { FALLBACK_CHECKPOINT_PAGES } from '../../../adapters/sqlite/checkpointer.js';
import { systemClock } from '../../../src/clock.js';

const PAGE = 4096;
const HOUR = 3_600_000;

/** A store in a new directory, and enough writes to pass SQLite's own checkpoint threshold (1,000 pages). */
async function written(t: Test, checkpointEveryMs: number, checkpointThread = true) {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-checkpoints-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'lanyard.db');
  const store = openSqliteStore(path, systemClock, { checkpointEveryMs, checkpointThread });
  t.teardown(() => store.close());
  const before = statSync(path).size;
  const payload = { accountId: 'u_1', clientId: 'app', scope: 'openid profile', padding: 'x'.repeat(400) };
  for (let i = 0; i < 600; i += 1) await store.oidc.upsert('AccessToken', `token-${i}-${'y'.repeat(40)}`, { ...payload, grantId: `grant-${i}` }, 3600);
  return { store, path, before };
}

t.test('a write never checkpoints the log on the event loop', async (t) => {
  const { path, before } = await written(t, HOUR); // the thread does not tick during this test
  const walPages = statSync(`${path}-wal`).size / PAGE;
  t.ok(walPages > 1_000 && walPages < FALLBACK_CHECKPOINT_PAGES, `${walPages.toFixed(0)} pages of log: past SQLite's own threshold (1,000), within the fallback`);
  t.equal(statSync(path).size, before, 'and none of it moved into the database file by a write');
});

t.test('the thread moves the log into the database file', async (t) => {
  const { store, path, before } = await written(t, 100);
  const deadline = Date.now() + 5_000;
  while (statSync(path).size <= before + 100 * PAGE && Date.now() < deadline) await sleep(50);
  t.ok(statSync(path).size > before + 100 * PAGE, `moved (${before} → ${statSync(path).size} bytes)`);
  t.equal((await store.oidc.find('AccessToken', `token-599-${'y'.repeat(40)}`))?.grantId, 'grant-599', 'and everything reads back');
  const started = Date.now();
  await store.close();
  t.ok(Date.now() - started < 2_000, 'closing stops the thread promptly');
  await t.resolves(store.close(), 'and closing twice is harmless');
});

t.test('checkpointThread: false (a worker, a command): no thread of its own, and the fallback threshold kept', async (t) => {
  const { store, path, before } = await written(t, 50, false);
  await sleep(500); // ten of the intervals a thread would have checkpointed in
  const walPages = statSync(`${path}-wal`).size / PAGE;
  t.ok(walPages > 1_000 && walPages < FALLBACK_CHECKPOINT_PAGES, `${walPages.toFixed(0)} pages of log: past SQLite's own threshold, within the fallback`);
  t.equal(statSync(path).size, before, 'nothing moved the log into the database file');
  await store.close();
  t.ok(statSync(path).size > before + 100 * PAGE, 'closing the last connection does');
});
