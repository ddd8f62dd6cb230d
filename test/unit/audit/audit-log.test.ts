import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { openStore } from '../../../adapters/open-store.js';
import type { AuditEvent, Store } from '../../../adapters/store.js';
import { AuditLog, type AuditLogger } from '../../../src/audit/audit-log.js';
import { newAuditId } from '../../../src/audit/audit-id.js';
import type { AuditInput } from '../../../src/audit/audit-recorder.js';
import { ManualClock } from '../../../src/clock.js';

const ORG = 'o100000000000001';
const START = new Date('2027-01-15T08:00:00.000Z');
const input = (n: number): AuditInput => ({ organisationId: ORG, kind: 'sign_in', action: 'sign_in', subjectId: `u${n}` });

/**
 * A real SQLite store, seen through a door that can be shut: appendAudit fails while `down`, and each write
 * (its size) is noted. The store itself is never imitated.
 */
async function fixture(t: Test, o: { flushEveryMs?: number; batchSize?: number; mostKept?: number } = {}) {
  const clock = new ManualClock(START);
  const store = await openStore('sqlite::memory:', clock);
  const writes: number[] = [];
  /** When each write began (performance.now()). */
  const times: number[] = [];
  const door = { down: false };
  const lines: { o: object; m: string }[] = [];
  const log: AuditLogger = { info: (o, m) => lines.push({ o, m }), warn: (o, m) => lines.push({ o, m }) };
  const audit = new AuditLog({
    store: {
      async appendAudit(events: AuditEvent[]) {
        writes.push(events.length);
        times.push(performance.now());
        if (door.down) throw new Error('the store is away');
        return store.appendAudit(events);
      },
    },
    clock, log, ...o,
  });
  t.teardown(async () => { await audit.close(); await store.close(); });
  const stored = async () => store.queryAudit({ organisationId: ORG, limit: 100_000 });
  return { clock, store: store as Store, audit, writes, times, door, lines, stored };
}

t.test('record is synchronous and writes nothing at once; a batch is written after flushEveryMs', async (t) => {
  const { audit, writes, times, stored } = await fixture(t, { flushEveryMs: 40 });
  const begun = performance.now();
  audit.record(input(1));
  audit.record({ ...input(2), at: '2027-01-15T07:59:00.000Z' });
  t.same(writes, [], 'nothing written on the caller\'s path');
  t.same(audit.stats(), { dropped: 0, waiting: 2 });
  await sleep(200);
  t.same(writes, [2], 'one write of both');
  t.ok(times[0]! - begun >= 39, 'not before the wait');
  const events = await stored();
  t.same(events.map((e) => [e.subjectId, e.at, e.count]), [['u1', START.toISOString(), 1], ['u2', '2027-01-15T07:59:00.000Z', 1]],
    'the recorder\'s time (or the one given) and a count of 1');
  t.match(events[0]!.id, /^a[0-9a-z]{23}$/, 'an id made by the recorder');
  t.same(audit.stats(), { dropped: 0, waiting: 0 });
});

t.test('a full batch is written without waiting for the timer, in batches of batchSize', async (t) => {
  const { audit, writes, stored } = await fixture(t, { flushEveryMs: 60_000, batchSize: 10 });
  for (let i = 0; i < 25; i += 1) audit.record(input(i));
  t.same(writes, [], 'still nothing on the caller\'s path');
  await sleep(200);
  t.same(writes, [10, 10], 'the full batches, one write at a time');
  await audit.flush();
  t.same(writes, [10, 10, 5], 'flush writes the rest');
  t.equal((await stored()).length, 25);
});

t.test('ids are unique and sort as the events were recorded', async (t) => {
  const ids = Array.from({ length: 2000 }, (_, i) => newAuditId(START.getTime() + Math.floor(i / 500)));
  t.equal(new Set(ids).size, ids.length, 'unique');
  t.same([...ids].sort(), ids, 'in order');
  t.ok(newAuditId(START.getTime() + 1000) > ids[ids.length - 1]!, 'a later millisecond sorts later');
});

t.test('a store failure keeps the events and writes them when the store is back; past mostKept they are dropped and counted', async (t) => {
  const { audit, writes, door, lines, stored } = await fixture(t, { flushEveryMs: 5, batchSize: 4, mostKept: 10 });
  door.down = true;
  for (let i = 0; i < 6; i += 1) audit.record(input(i));
  await audit.flush();
  t.equal((await stored()).length, 0, 'nothing stored while it fails');
  t.same(audit.stats(), { dropped: 0, waiting: 6 }, 'all kept');
  t.match(lines, [{ o: { event: 'audit.write_failed', err: { message: 'the store is away' } } }], 'the failure logged once');
  t.notMatch(JSON.stringify(lines), /u[0-9]/, 'no event in the log');
  for (let i = 6; i < 14; i += 1) audit.record(input(i));
  t.same(audit.stats(), { dropped: 4, waiting: 10 }, 'kept up to the bound, the rest dropped');
  t.equal(lines.filter((l) => (l.o as { event: string }).event === 'audit.events_dropped').length, 1, 'dropping said once');
  const tries = writes.length;
  await sleep(100);
  t.ok(writes.length > tries, 'tried again by itself');
  t.ok(writes.length < tries + 10, 'with waits that grow');
  door.down = false;
  await audit.flush();
  t.same((await stored()).map((e) => e.subjectId).sort(), ['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8', 'u9'], 'the kept ones written, in full');
  t.same(audit.stats(), { dropped: 4, waiting: 0 });
  t.match(lines[lines.length - 1], { o: { event: 'audit.written_again', dropped: 4 } }, 'the recovery said, with what was lost');
});

t.test('close writes what waits, then records nothing more (counted as dropped); disabled records nothing', async (t) => {
  const { audit, writes, stored } = await fixture(t, { flushEveryMs: 60_000 });
  audit.record(input(1));
  await audit.close();
  t.same(writes, [1], 'written at close');
  audit.record(input(2));
  await audit.flush();
  t.equal((await stored()).length, 1, 'nothing after close');
  t.equal(audit.stats().dropped, 1);

  const off = await fixture(t, { flushEveryMs: 1 });
  const disabled = new AuditLog({ store: off.store, clock: off.clock, log: { info: () => {}, warn: () => {} }, enabled: false });
  disabled.record(input(3));
  await disabled.flush();
  t.same(disabled.stats(), { dropped: 0, waiting: 0 });
  t.equal((await off.stored()).length, 0, 'audit.enabled false: nothing');
});

t.test('a flush while a write is under way waits for it, and a failing flush keeps the events', async (t) => {
  const { audit, door, stored } = await fixture(t, { flushEveryMs: 1 });
  audit.record(input(1));
  await sleep(5); // the timer's write has begun or is done
  audit.record(input(2));
  await audit.flush();
  t.equal((await stored()).length, 2);
  door.down = true;
  audit.record(input(3));
  await audit.flush();
  t.equal(audit.stats().waiting, 1, 'kept');
  door.down = false;
  await audit.close();
  t.equal((await stored()).length, 3, 'written at close');
});
