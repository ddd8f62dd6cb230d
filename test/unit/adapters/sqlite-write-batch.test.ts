import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { retryBusyWrites } from '../../../adapters/sqlite/busy-retry.js';
import { batchWrites } from '../../../adapters/sqlite/write-batch.js';
import { ManualClock } from '../../../src/clock.js';
import { holdWriteLock, newSqlitePath } from '../../helpers/sqlite-lock.js';

/**
 * Commits in the write-ahead log, read from the file itself (https://sqlite.org/fileformat.html#the_write_ahead_log):
 * every frame whose salts match the log's header belongs to it, and a commit's last frame records the size
 * of the database after it (non-zero).
 */
function commitsInLog(path: string): number {
  const wal = readFileSync(`${path}-wal`);
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  return commits;
}

/** A database with the store's schema, opened as the store opens it, its log never checkpointed (counted). */
async function openBatched(t: Test, timeoutMs = 5000) {
  const path = newSqlitePath(t);
  await openSqliteStore(path, new ManualClock(), { checkpointThread: false }).close();
  const db = new Database(path);
  t.teardown(() => db.close());
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  retryBusyWrites(db, timeoutMs);
  const insert = db.prepare('INSERT INTO settings (name, value) VALUES (?, ?)');
  const value = db.prepare('SELECT value FROM settings WHERE name = ?').pluck();
  const reader = new Database(path, { readonly: true });
  t.teardown(() => reader.close());
  return { path, db, batch: batchWrites(db), insert, value, reader };
}

t.test('writes asked for in one turn of the event loop are committed together, each with its own result', async (t) => {
  const { path, batch, insert, value, reader } = await openBatched(t);
  const before = commitsInLog(path);
  const writes = Array.from({ length: 20 }, (_, i) => batch.write(() => insert.run(`w${i}`, String(i)).changes + i));
  const rewrite = batch.write(() => insert.run('w0', 'again')).catch((err: unknown) => err);
  t.equal(value.get('w0'), undefined, 'nothing is written while the turn goes on');
  t.same(await Promise.all(writes), Array.from({ length: 20 }, (_, i) => 1 + i), 'each write\'s own result');
  t.match(await rewrite, { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }, 'in the order asked: the 21st meets the first\'s row');
  t.equal(commitsInLog(path) - before, 1, 'one commit for the twenty writes');
  t.equal(reader.prepare('SELECT count(*) FROM settings WHERE name LIKE \'w%\'').pluck().get(), 20, 'seen by another connection once the promises settle');

  await batch.write(() => insert.run('later', '1'));
  await batch.write(() => insert.run('later still', '2'));
  t.equal(commitsInLog(path) - before, 3, 'a write asked for after the others settled: a commit of its own');
});

t.test('a write that fails fails alone, and leaves nothing behind', async (t) => {
  const { path, batch, insert, value } = await openBatched(t);
  const before = commitsInLog(path);
  const first = batch.write(() => insert.run('a', '1'));
  const failing = batch.write(() => { insert.run('b', '2'); throw new Error('after writing'); }).catch((err: unknown) => err);
  const last = batch.write(() => insert.run('c', '3'));
  await Promise.all([first, last]);
  t.match(await failing, { message: 'after writing' }, 'its own error');
  t.same([value.get('a'), value.get('b'), value.get('c')], ['1', undefined, '3'], 'its row rolled back (its savepoint), the others committed');
  t.equal(commitsInLog(path) - before, 1, 'in one commit');
});

t.test('a SQLite error other than a constraint (a full disk, an I/O error) fails every write of the batch', async (t) => {
  const { path, db, batch, insert, value } = await openBatched(t);
  const before = commitsInLog(path);
  const ioError = () => Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
  for (const [label, failing] of [
    ['the transaction still open', () => { insert.run('mid', '0'); throw ioError(); }],
    ['the transaction ended by SQLite', () => { db.exec('ROLLBACK'); throw ioError(); }],
  ] as const) {
    const settled = await Promise.allSettled([batch.write(() => insert.run('x', '1')), batch.write(failing), batch.write(() => insert.run('y', '2'))]);
    t.match(settled, Array(3).fill({ status: 'rejected', reason: { code: 'SQLITE_IOERR' } }), `${label}: all three fail, with its error`);
    t.same([value.get('x'), value.get('mid'), value.get('y')], [undefined, undefined, undefined], `${label}: nothing written`);
  }
  t.equal(commitsInLog(path) - before, 0, 'no commit');
  await batch.write(() => insert.run('z', '3'));
  t.equal(value.get('z'), '3', 'the next batch commits');
});

t.test('more writes than one commit holds: several commits in a row, in order', async (t) => {
  const { path, batch, insert, value } = await openBatched(t);
  const before = commitsInLog(path);
  const writes: Promise<unknown>[] = Array.from({ length: 300 }, (_, i) => batch.write(() => insert.run(`n${i}`, String(i))));
  writes.push(batch.write(() => insert.run('n0', 'again')).catch(() => 'refused'));
  const results = await Promise.all(writes);
  t.equal(results.at(-1), 'refused', 'the last meets the first\'s row');
  t.equal(value.get('n299'), '299', 'every write landed');
  t.equal(commitsInLog(path) - before, 3, '301 writes: three commits of at most 128');
});

t.test('the batch waits for another process\'s write lock, tried again whole; SQLITE_BUSY for all after the timeout', async (t) => {
  const waited = await openBatched(t);
  const { released, committing } = await holdWriteLock(t, waited.path, 150);
  await Promise.all([waited.batch.write(() => waited.insert.run('p', '1')), waited.batch.write(() => waited.insert.run('q', '2'))]);
  t.ok(Date.now() >= await committing, 'it waited for the lock (held 150 ms) until the other connection committed');
  await released;
  t.same([waited.value.get('held'), waited.value.get('p'), waited.value.get('q')], ['yes', '1', '2'], 'every write landed');

  const short = await openBatched(t, 50);
  const held = await holdWriteLock(t, short.path, 1000);
  let runs = 0;
  const settled = await Promise.allSettled([
    short.batch.write(() => { runs += 1; return short.insert.run('r', '1'); }),
    short.batch.write(() => short.insert.run('s', '2')),
  ]);
  t.match(settled, [{ status: 'rejected', reason: { code: 'SQLITE_BUSY' } }, { status: 'rejected', reason: { code: 'SQLITE_BUSY' } }], 'still held at the timeout (50 ms): SQLITE_BUSY for every write');
  await held.released;
  t.same([short.value.get('r'), short.value.get('s')], [undefined, undefined], 'nothing written');
  t.equal(runs, 0, 'BEGIN IMMEDIATE met the lock: no write ran before it was taken');
});

t.test('closing the store commits the writes still waiting', async (t) => {
  const path = newSqlitePath(t);
  const store = openSqliteStore(path, new ManualClock(), { checkpointThread: false });
  const saved = store.oidc.upsert('AccessToken', 'at-1', { accountId: 'u1', clientId: 'app' }, 60);
  const counted = store.hitCounter('rate:127.0.0.1', 60);
  const closing = store.close();
  const late = store.oidc.upsert('AccessToken', 'at-late', { accountId: 'u1', clientId: 'app' }, 60); // while it closes
  await closing;
  await Promise.all([saved, late]);
  await t.rejects(store.oidc.upsert('AccessToken', 'at-after', { accountId: 'u1', clientId: 'app' }, 60), /not open/, 'once closed, a write fails');
  t.equal((await counted).count, 1, 'the counter\'s hit settled with its count');
  const reopened = openSqliteStore(path, new ManualClock(), { checkpointThread: false });
  t.teardown(() => reopened.close());
  t.equal((await reopened.oidc.find('AccessToken', 'at-1'))?.accountId, 'u1', 'the record is there after reopening');
  t.equal((await reopened.peekCounter('rate:127.0.0.1'))?.count, 1, 'and the counter');
  t.equal((await reopened.oidc.find('AccessToken', 'at-late'))?.accountId, 'u1', 'and the write asked for while it closed');
});

t.test('ending a user\'s sessions comes after the record writes asked for before it, in the same turn', async (t) => {
  const store = openSqliteStore(newSqlitePath(t), new ManualClock(), { checkpointThread: false });
  t.teardown(() => store.close());
  const record = { accountId: 'u1', clientId: 'app', grantId: 'g1' };
  await Promise.all([store.oidc.upsert('AccessToken', 'at-1', record, 60), store.endSessions('u1')]);
  t.equal(await store.oidc.find('AccessToken', 'at-1'), undefined, 'signing out everywhere removed the token asked for just before');
  await Promise.all([store.oidc.upsert('RefreshToken', 'rt-1', record, 60), store.deleteUser('u1', '2026-11-24T00:00:00Z')]);
  t.equal(await store.oidc.find('RefreshToken', 'rt-1'), undefined, 'deleting the user too');
});

t.test('the store\'s hot-path writes (protocol records, counters, locks) share a commit per turn', async (t) => {
  const path = newSqlitePath(t);
  const store = openSqliteStore(path, new ManualClock(), { checkpointThread: false });
  t.teardown(() => store.close());
  await store.oidc.upsert('AuthorizationCode', 'code-1', { accountId: 'u1', clientId: 'app', grantId: 'g1' }, 600);
  const before = commitsInLog(path);
  const [consumed, , , hit, lock] = await Promise.all([
    store.oidc.consume('AuthorizationCode', 'code-1'),
    store.oidc.upsert('AccessToken', 'at-1', { accountId: 'u1', clientId: 'app', grantId: 'g1' }, 60),
    store.oidc.upsert('RefreshToken', 'rt-1', { accountId: 'u1', clientId: 'app', grantId: 'g1' }, 60),
    store.hitCounter('rate:token:127.0.0.1', 60),
    store.tryLock('rotation', 1000),
  ]);
  t.equal(commitsInLog(path) - before, 1, 'a code consumed, two tokens, a rate-limit hit and a lock: one commit');
  t.same([consumed, hit.count, typeof lock], [true, 1, 'string'], 'each with its result');
  t.equal(await store.oidc.consume('AuthorizationCode', 'code-1'), false, 'consumed once only');
  await Promise.all([store.oidc.revokeByGrantId('g1'), store.unlock('rotation', lock!), store.clearCounter('rate:token:127.0.0.1')]);
  t.equal(commitsInLog(path) - before, 2, 'revoking, unlocking and clearing: the next commit');
  t.equal(await store.oidc.find('AccessToken', 'at-1'), undefined, 'revoked');
});
