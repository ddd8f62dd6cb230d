import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { openRedisStore } from '../../adapters/redis.js';
import type { RosterChanges, Store } from '../../adapters/store.js';
import { ManualClock } from '../../src/clock.js';
import { parseRedisUrl } from '../../src/config/store-url.js';
import { LanyardError } from '../../src/errors.js';
import { NORTH, noChanges, run, sampleClass } from '../contract/roster.js';
import { startRedis } from '../helpers/redis-server.js';

/**
 * The Redis store's applyRoster is one MULTI/EXEC on a connection of its own, sent in parts: what happens when
 * that connection dies half-way, and when others write while it is being sent.
 */
const server = await startRedis(t, { aof: false });
const admin = new Redis({ host: server.host, port: server.port, maxRetriesPerRequest: 1 });
admin.on('error', () => {});
t.teardown(() => admin.disconnect());

let prefixes = 0;
async function open(t: Test): Promise<Store> {
  const store = await openRedisStore(parseRedisUrl(server.url), new ManualClock(new Date('2027-01-15T12:00:00.000Z')), `r${(prefixes += 1)}`);
  t.teardown(() => store.close());
  await store.upsertOrganisation({ id: NORTH, slug: 'north', name: 'North' });
  return store;
}

/** A change big enough to take many parts to send: `n` users, each in one of 100 classes. */
function bigChange(n: number, id = 'run-big'): RosterChanges {
  const users = Array.from({ length: n }, (_, i) => ({
    id: `u2${String(i).padStart(14, '0')}`, organisationId: NORTH, username: `pupil${i}`, givenName: 'P', familyName: `${i}`, type: 'student',
  }));
  const classes = Array.from({ length: 100 }, (_, i) => sampleClass(`big-${i}`, `Class ${i}`));
  return {
    ...noChanges(run(id, '2027-01-16T00:00:00.000Z')),
    users,
    classes: { put: classes, remove: [] },
    enrolments: { put: users.map((u, i) => ({ classId: `big-${i % 100}`, userId: u.id, role: 'student', primary: false })), remove: [] },
  };
}

/** Waits until a connection is inside a MULTI (CLIENT LIST flag x), then runs `act` with its id. */
async function whenInMulti(act: (clientId: string) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 2000; i += 1) {
    const list = (await admin.client('LIST')) as string;
    const line = list.split('\n').find((l) => /\bflags=\S*x/.test(l));
    if (line) {
      await act(/\bid=(\d+)/.exec(line)![1]!);
      return;
    }
    await sleep(2);
  }
  throw new Error('no connection entered a MULTI');
}

t.test('redis roster: a connection lost while the MULTI is being sent leaves nothing written', async (t) => {
  const store = await open(t);
  const applying = store.applyRoster(bigChange(20_000));
  await whenInMulti((id) => admin.client('KILL', 'ID', id));
  await t.rejects(applying, 'the change fails');
  const snapshot = await store.rosterSnapshot([NORTH]);
  t.same([snapshot.users.length, snapshot.classes.length, snapshot.enrolments.length], [0, 0, 0], 'no user, class or enrolment');
  t.same(await store.listRosterImports(5), [], 'no run recorded');
  await store.applyRoster(bigChange(200, 'run-again'));
  t.equal((await store.rosterSnapshot([NORTH])).users.length, 200, 'the store takes the next change');
});

t.test('redis roster: a user deleted while the change is sent voids the EXEC; read again, the change is refused', async (t) => {
  const store = await open(t);
  await store.applyRoster(bigChange(10, 'run-1'));
  const change = bigChange(20_000, 'run-2');
  const target = change.users[5]!.id;
  const applying = store.applyRoster(change);
  await whenInMulti(() => store.deleteUser(target, '2027-01-16T00:00:00.000Z'));
  const err = await applying.then(() => undefined, (e: unknown) => e);
  t.ok(err instanceof LanyardError && err.statusCode === 409, `refused on the second reading: ${String(err)}`);
  t.equal(await store.findUser(target), undefined, 'the deleted user is not brought back');
  t.equal((await store.rosterSnapshot([NORTH])).users.length, 9, 'nothing of the change was written');
  t.same((await store.listRosterImports(5)).map((r) => r.id), ['run-1'], 'only the first run');
});

t.test('redis roster: a suspension made while the change is sent is kept', async (t) => {
  const store = await open(t);
  await store.applyRoster(bigChange(10, 'run-1'));
  const change = bigChange(20_000, 'run-2');
  const target = change.users[3]!.id;
  const applying = store.applyRoster({ ...change, users: change.users.map((u) => ({ ...u, givenName: 'Renamed' })) });
  await whenInMulti(() => store.setSuspended(target, '2027-01-16T00:00:00.000Z'));
  await applying;
  const user = await store.findUser(target);
  t.same([user?.givenName, user?.suspendedAt], ['Renamed', '2027-01-16T00:00:00.000Z'], "the roster's fields written, the suspension kept");
  t.equal((await store.rosterSnapshot([NORTH])).users.length, 20_000, 'the whole change');
});
