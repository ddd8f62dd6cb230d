import { createConnection, createServer, type Server, type Socket } from 'node:net';
import t, { type Test } from 'tap';
import { openRedisStore } from '../../adapters/redis.js';
import type { RosterChanges, Store } from '../../adapters/store.js';
import { ManualClock } from '../../src/clock.js';
import { parseRedisUrl } from '../../src/config/store-url.js';
import { LanyardError } from '../../src/errors.js';
import { NORTH, noChanges, run, sampleClass } from '../contract/roster-fixtures.js';
import { freePort, startRedis } from '../helpers/redis-server.js';

/**
 * The Redis store's applyRoster is one MULTI/EXEC on a connection of its own, sent in parts: what happens when
 * that connection dies half-way, and when others write while it is being sent. Between the store and a real
 * redis-server sits a proxy that finds the connection that began a MULTI and, once it has passed on part of
 * the transaction, holds the rest back (or cuts the connection): EXEC has not been sent yet.
 */
const server = await startRedis(t, { aof: false });

/** What the proxy does to the transaction's connection once `afterBytes` of it have gone through. */
type Gate = { mode: 'hold' | 'cut'; reached: Promise<void>; release(): void };

async function startGate(t: Test, mode: Gate['mode'], afterBytes = 256 * 1024): Promise<{ port: number; gate: Gate }> {
  let reached!: () => void;
  const gate: Gate = { mode, reached: new Promise((resolve) => { reached = resolve; }), release: () => {} };
  let gated = false;
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((client) => {
    const upstream = createConnection({ host: server.host, port: server.port });
    sockets.add(client).add(upstream);
    let tail = '';
    let passed = -1; // bytes of the transaction passed on; -1 before it began
    const waiting: Buffer[] = [];
    let holding = false;
    client.on('data', (chunk: Buffer) => {
      if (holding) { waiting.push(chunk); return; }
      if (passed < 0 && !gated) {
        const text = (tail + chunk.toString('latin1')).toLowerCase();
        tail = text.slice(-16);
        if (text.includes('$5\r\nmulti\r\n')) passed = 0;
      }
      if (passed >= 0 && !gated && (passed += chunk.length) > afterBytes) {
        gated = true;
        if (mode === 'cut') { client.destroy(); upstream.destroy(); reached(); return; }
        holding = true;
        waiting.push(chunk);
        gate.release = () => { holding = false; for (const c of waiting.splice(0)) upstream.write(c); };
        reached();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const close = () => { client.destroy(); upstream.destroy(); };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  t.teardown(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => proxy.close(resolve));
  });
  return { port, gate };
}

let prefixes = 0;
async function open(t: Test, port: number): Promise<Store> {
  const store = await openRedisStore(parseRedisUrl(`redis://127.0.0.1:${port}`), new ManualClock(new Date('2027-01-15T12:00:00.000Z')), `r${(prefixes += 1)}`);
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

t.test('redis roster: a connection lost while the MULTI is being sent leaves nothing written', async (t) => {
  const { port, gate } = await startGate(t, 'cut');
  const store = await open(t, port);
  const applying = store.applyRoster(bigChange(20_000));
  await gate.reached;
  await t.rejects(applying, 'the change fails');
  const snapshot = await store.rosterSnapshot([NORTH]);
  t.same([snapshot.users.length, snapshot.classes.length, snapshot.enrolments.length], [0, 0, 0], 'no user, class or enrolment');
  t.same(await store.listRosterImports(5), [], 'no run recorded');
  await store.applyRoster(bigChange(200, 'run-again'));
  t.equal((await store.rosterSnapshot([NORTH])).users.length, 200, 'the store takes the next change');
});

t.test('redis roster: a user deleted while the change is sent voids the EXEC; read again, the change is refused', async (t) => {
  const { port, gate } = await startGate(t, 'hold');
  const store = await open(t, port);
  await store.applyRoster(bigChange(10, 'run-1'));
  const change = bigChange(20_000, 'run-2');
  const target = change.users[5]!.id;
  const applying = store.applyRoster(change);
  await gate.reached;
  await store.deleteUser(target, '2027-01-16T00:00:00.000Z');
  gate.release();
  const err = await applying.then(() => undefined, (e: unknown) => e);
  t.ok(err instanceof LanyardError && err.statusCode === 409, `refused on the second reading: ${String(err)}`);
  t.equal(await store.findUser(target), undefined, 'the deleted user is not brought back');
  t.equal((await store.rosterSnapshot([NORTH])).users.length, 9, 'nothing of the change was written');
  t.same((await store.listRosterImports(5)).map((r) => r.id), ['run-1'], 'only the first run');
});

t.test('redis roster: a suspension made while the change is sent is kept', async (t) => {
  const { port, gate } = await startGate(t, 'hold');
  const store = await open(t, port);
  await store.applyRoster(bigChange(10, 'run-1'));
  const change = bigChange(20_000, 'run-2');
  const target = change.users[3]!.id;
  const applying = store.applyRoster({ ...change, users: change.users.map((u) => ({ ...u, givenName: 'Renamed' })) });
  await gate.reached;
  await store.setSuspended(target, '2027-01-16T00:00:00.000Z');
  gate.release();
  await applying;
  const user = await store.findUser(target);
  t.same([user?.givenName, user?.suspendedAt], ['Renamed', '2027-01-16T00:00:00.000Z'], "the roster's fields written, the suspension kept");
  t.equal((await store.rosterSnapshot([NORTH])).users.length, 20_000, 'the whole change');
});
