import Database from 'better-sqlite3';
import t from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { retryBusyWrites, retryWhileBusy } from '../../../adapters/sqlite/busy-retry.js';
import { systemClock } from '../../../src/clock.js';
import { holdWriteLock, newSqlitePath as newPath } from '../../helpers/sqlite-lock.js';
import { openWatchedSqliteStore } from '../../helpers/watched-sqlite-store.js';

const busy = (code = 'SQLITE_BUSY') => Object.assign(new Error('database is locked'), { code });

t.test('retryWhileBusy: tries again on SQLITE_BUSY, never on anything else, and gives up at the deadline', async (t) => {
  let calls = 0;
  t.equal(retryWhileBusy(() => { calls += 1; if (calls < 4) throw busy(calls === 2 ? 'SQLITE_BUSY_SNAPSHOT' : 'SQLITE_BUSY'); return 'done'; }, 1000), 'done');
  t.equal(calls, 4, 'three busy answers (one a snapshot conflict), then the result');

  calls = 0;
  t.throws(() => retryWhileBusy(() => { calls += 1; throw Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' }); }, 1000), { code: 'SQLITE_CONSTRAINT' });
  t.equal(calls, 1, 'another error: thrown at once');

  calls = 0;
  const started = performance.now();
  t.throws(() => retryWhileBusy(() => { calls += 1; throw busy(); }, 30), { code: 'SQLITE_BUSY' }, 'still busy at the deadline: the error stands');
  t.ok(performance.now() - started >= 25, 'after waiting about the timeout');
  t.ok(calls > 10, `in short steps (${calls} tries in 30 ms; SQLite's own handler would have made 5)`);
});

t.test('the store waits for another process\'s write lock with its own retries, not SQLite\'s sleeping handler', async (t) => {
  const path = newPath(t);
  const store = openSqliteStore(path, systemClock, { checkpointThread: false });
  t.teardown(() => store.close());
  const raw = new Database(path, { timeout: 0 });
  t.teardown(() => raw.close());

  const { released, committing } = await holdWriteLock(t, path, 150);
  t.throws(() => raw.prepare("INSERT INTO settings (name, value) VALUES ('probe', '1')").run(), { code: 'SQLITE_BUSY' }, 'the lock is held (another connection, no retries, no timeout)');
  await store.ping(); // an autocommit statement
  t.ok(Date.now() >= await committing, 'it waited for the lock (held 150 ms) until the other connection committed, rather than failing');
  await store.oidc.upsert('AccessToken', 'at-1', { accountId: 'u1', clientId: 'app' }, 60); // the write batch's transaction
  await store.hitCounter('login:u1', 60);
  await released;
  t.equal((await store.oidc.find('AccessToken', 'at-1'))?.accountId, 'u1', 'the write waited and landed');
  t.equal(raw.prepare("SELECT value FROM settings WHERE name = 'held'").pluck().get(), 'yes', 'after the other connection\'s');
  t.equal(raw.prepare('SELECT count FROM counters WHERE key = ?').pluck().get('login:u1'), 1, 'the transaction too');
});

t.test('a connection with busy retries: SQLite\'s own handler off; SQLITE_BUSY once the timeout has passed', async (t) => {
  const path = newPath(t);
  await openSqliteStore(path, systemClock, { checkpointThread: false }).close(); // the schema
  const db = new Database(path);
  t.teardown(() => db.close());
  db.pragma('busy_timeout = 5000');
  retryBusyWrites(db, 50);
  t.equal(db.pragma('busy_timeout', { simple: true }), 0, 'busy_timeout 0: SQLite answers SQLITE_BUSY at once, and the retries wait');
  const insert = db.prepare("INSERT INTO settings (name, value) VALUES ('late', 'no')");
  const { released } = await holdWriteLock(t, path, 1500);
  const waited = (attempt: () => unknown): number => {
    const started = performance.now();
    t.throws(attempt, { code: 'SQLITE_BUSY' });
    return performance.now() - started;
  };
  t.ok(waited(() => insert.run()) >= 45, 'a statement: tried again until the timeout (50 ms), then SQLITE_BUSY');
  t.ok(waited(() => db.transaction(() => insert.run()).immediate()) >= 45, 'a BEGIN IMMEDIATE transaction too');
  let runs = 0;
  const readThenWrite = db.transaction(() => { runs += 1; db.prepare('SELECT count(*) FROM settings').get(); insert.run(); });
  t.ok(waited(() => readThenWrite()) >= 45, 'a deferred transaction whose write meets the lock too');
  t.ok(runs > 1, `and it is the whole transaction that is tried again (${runs} runs), not its statement`);
  await released;
  t.equal(db.prepare("SELECT count(*) FROM settings WHERE name LIKE 'late%'").pluck().get(), 0, 'none of them wrote anything');
  insert.run();
  t.equal(db.prepare("SELECT value FROM settings WHERE name = 'late'").pluck().get(), 'no', 'once the lock is free, writes go through');
});

t.test('the store turns its connection\'s busy handler off and its statements retry', async (t) => {
  const { store, connections } = openWatchedSqliteStore(newPath(t));
  t.teardown(() => store.close());
  t.equal(connections.size, 1, 'one connection');
  const [db] = [...connections];
  t.equal(db!.pragma('busy_timeout', { simple: true }), 0, 'busy_timeout 0 once opened: SQLite\'s sleeping handler is off');
  t.ok(Object.hasOwn(db!.prepare('SELECT 1'), 'run'), 'statements carry the retrying run/get/all');
});
