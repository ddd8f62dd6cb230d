import type { Test } from 'tap';
import type { AuditEvent, AuditFilter, Store, StoreEntry } from '../../adapters/store.js';
import type { Fresh } from './harness.js';

const NORTH = 'o100000000000001';
const SOUTH = 'o100000000000002';
const PIP = 'u100000000000001';
const TESS = 'u100000000000002';

/** An event of the north school at `at` (minutes past 08:00 on 2027-01-15 when a number). */
const ev = (id: string, at: string | number, over: Partial<AuditEvent> = {}): AuditEvent => ({
  id, organisationId: NORTH, at: typeof at === 'number' ? new Date(Date.UTC(2027, 0, 15, 8, at)).toISOString() : at,
  kind: 'sign_in', action: 'sign_in', count: 1, ...over,
});

const ids = (events: AuditEvent[]) => events.map((e) => e.id);
const query = (store: Store, f: Partial<AuditFilter> = {}) => store.queryAudit({ organisationId: NORTH, limit: 100, ...f });

/** A day's failed sign-ins from one source, merged (interactions/audit-sign-in.ts builds the key). */
const failure = (id: string, at: string | number, over: Partial<AuditEvent> = {}) => ev(id, at, {
  kind: 'sign_in_failed', action: 'sign_in', method: 'emoji', result: 'wrong_credential', source: '192.0.2.1',
  subjectId: PIP, aggregate: `fail:2027-01-15:192.0.2.1:emoji:${PIP}`, ...over,
});

/** A small trail: sign-ins, a launch, a credential change, in two schools. */
async function fillTrail(store: Store): Promise<AuditEvent[]> {
  const events = [
    ev('e01', 0, { actorId: PIP, actorName: 'Pip P', subjectId: PIP, subjectName: 'Pip P', method: 'emoji', deviceKind: 'classroom', clientId: 'app', result: 'success', source: '192.0.2.1' }),
    ev('e02', 1, { kind: 'launch', action: 'launch', actorId: PIP, subjectId: PIP, clientId: 'other-app' }),
    ev('e03', 2, { actorId: TESS, subjectId: TESS, method: 'password', deviceKind: 'other', clientId: 'lanyard', result: 'success' }),
    ev('e04', 3, { kind: 'credential', action: 'emoji.reset', actorId: 'operator', actorName: 'operator', subjectId: PIP, detail: { how: 'cli', 'with space': 'é/"x"' } }),
    ev('e05', 4, { organisationId: SOUTH, actorId: 'u100000000000009', subjectId: 'u100000000000009', method: 'badge', clientId: 'app' }),
    ev('e06', 5, { kind: 'import', action: 'roster.applied', actorId: 'operator', detail: { users_added: '3' } }),
  ];
  await store.appendAudit(events);
  return events;
}

/** The audit trail (adapters/store/audit.ts): append-only, merged failures, filters, paging, use per day, purge, copy. */
export function auditContract(t: Test, fresh: Fresh): void {
  t.test('audit: appended events come back whole, newest first, per school', async (t) => {
    const { store } = await fresh(t);
    const events = await fillTrail(store);
    t.same(await query(store), events.filter((e) => e.organisationId === NORTH).reverse(), 'every field as written, newest first');
    t.strictSame((await query(store, { kinds: ['launch'] }))[0], events[1], 'no field added (undefined ones left out)');
    t.same(ids(await query(store, { organisationId: SOUTH })), ['e05'], "another school's");
    t.same(ids(await query(store, { limit: 2 })), ['e06', 'e04'], 'limited');
    t.same(await query(store, { organisationId: 'o100000000000003' }), [], 'a school with none');
    await store.appendAudit([]);
    await store.appendAudit([{ ...events[0]!, count: 5, action: 'changed' }]);
    t.same((await query(store, { kinds: ['sign_in'], limit: 5 })).find((e) => e.id === 'e01'), events[0], 'an id stored already is skipped');
  });

  t.test('audit: equal times are ordered by id', async (t) => {
    const { store } = await fresh(t);
    await store.appendAudit([ev('b', 0), ev('c', 0), ev('a', 0), ev('d', 1)]);
    t.same(ids(await query(store)), ['d', 'c', 'b', 'a']);
  });

  t.test('audit: events with one aggregate key are one row, count summed, at the latest, the rest of the first', async (t) => {
    const { store, reopen } = await fresh(t);
    await store.appendAudit([failure('f1', 10, { subjectName: 'first' }), failure('f2', 12, { subjectName: 'second' })]);
    await store.appendAudit([failure('f3', 11, { result: 'throttled' })]);
    // Many writers at once, as many requests (or instances) record failures together.
    const other = reopen ? await reopen() : store;
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? other : store).appendAudit([failure(`g${i}`, 20 + (i % 7))])));
    const rows = await query(store, { kinds: ['sign_in_failed'] });
    t.equal(rows.length, 1, 'one row');
    t.same(rows[0], failure('f1', 26, { subjectName: 'first', count: 33 }), 'the first event, at the latest time, every count');
    await store.appendAudit([failure('s1', 30, { organisationId: SOUTH }), failure('n2', 30, { aggregate: 'fail:2027-01-15:192.0.2.1:emoji:?' })]);
    t.same((await query(store, { kinds: ['sign_in_failed'] })).map((e) => [e.id, e.count]), [['n2', 1], ['f1', 33]], 'another key: its own row');
    t.same((await query(store, { organisationId: SOUTH })).map((e) => [e.id, e.count]), [['s1', 1]], 'the same key in another school: its own row');
  });

  t.test('audit: filters by kinds, person (actor or subject), app and time, together', async (t) => {
    const { store } = await fresh(t);
    await fillTrail(store);
    t.same(ids(await query(store, { kinds: ['credential', 'import'] })), ['e06', 'e04'], 'kinds');
    t.same(ids(await query(store, { kinds: [] })), [], 'no kinds: nothing');
    t.same(ids(await query(store, { userIds: [PIP] })), ['e04', 'e02', 'e01'], 'a person, as actor or subject');
    t.same(ids(await query(store, { userIds: [TESS, PIP, PIP] })), ['e04', 'e03', 'e02', 'e01'], 'several people, each event once');
    t.same(ids(await query(store, { userIds: ['operator'] })), ['e06', 'e04'], 'the operator');
    t.same(ids(await query(store, { userIds: [] })), [], 'no people: nothing');
    t.same(ids(await query(store, { clientId: 'app' })), ['e01'], 'an app');
    t.same(ids(await query(store, { from: ev('x', 1).at, to: ev('x', 3).at })), ['e03', 'e02'], 'from inclusive, to exclusive');
    t.same(ids(await query(store, { userIds: [PIP], kinds: ['sign_in', 'launch'], from: ev('x', 1).at })), ['e02'], 'together');
    t.same(ids(await query(store, { userIds: [PIP], clientId: 'app', limit: 1 })), ['e01'], 'a person and an app');
    t.same(ids(await query(store, { limit: 0 })), [], 'limit 0');
  });

  t.test('audit: paging with before goes through every event once, in order', async (t) => {
    const { store } = await fresh(t);
    const events = Array.from({ length: 47 }, (_, i) => ev(`p${String(i).padStart(2, '0')}`, Math.floor(i / 3), {
      subjectId: i % 2 ? PIP : TESS, clientId: i % 5 ? 'app' : 'other-app',
    }));
    for (let i = 0; i < events.length; i += 10) await store.appendAudit(events.slice(i, i + 10));
    for (const filter of [{}, { userIds: [PIP, TESS] }, { clientId: 'app' }, { userIds: [PIP], kinds: ['sign_in' as const] }]) {
      const seen: string[] = [];
      let page = await query(store, { ...filter, limit: 10 });
      while (page.length) {
        seen.push(...ids(page));
        const last = page[page.length - 1]!;
        page = await query(store, { ...filter, limit: 10, before: { at: last.at, id: last.id } });
      }
      const expected = (await query(store, filter)).map((e) => e.id);
      t.same(seen, expected, `${JSON.stringify(filter)}: the pages make the whole list`);
      t.equal(new Set(seen).size, seen.length, 'no event twice');
    }
    t.same(ids(await query(store)).slice(0, 4), ['p46', 'p45', 'p44', 'p43'], 'newest first');
    t.same(ids(await query(store, { before: { at: events[44]!.at, id: 'p44' }, limit: 3 })), ['p43', 'p42', 'p41'], 'before: within its own time, by id');
  });

  t.test('audit: use per day, by method and app, with merged failures counted by their count', async (t) => {
    const { store } = await fresh(t);
    const day = (d: number, h = 8) => new Date(Date.UTC(2027, 0, d, h)).toISOString();
    await store.appendAudit([
      ev('u1', day(14), { method: 'emoji', clientId: 'app' }),
      ev('u2', day(14, 23), { method: 'emoji', clientId: 'lanyard' }),
      ev('u3', day(14), { method: 'password' }),
      ev('u4', day(14), { kind: 'launch', action: 'launch', clientId: 'app' }),
      ev('u5', day(14), { kind: 'credential', action: 'emoji.reset', method: 'emoji', clientId: 'x' }),
      failure('u6', day(14), { aggregate: 'fail:2027-01-14:a' }),
      failure('u7', day(14, 9), { aggregate: 'fail:2027-01-14:a' }),
      failure('u8', day(14), { aggregate: 'fail:2027-01-14:b' }),
      ev('u9', day(16), { method: 'badge' }),
      ev('u10', day(15), { kind: 'console', action: 'user.suspended' }),
      ev('u11', day(14), { organisationId: SOUTH, method: 'emoji', clientId: 'app' }),
    ]);
    t.same(await store.auditUsage(NORTH, '2027-01-13', '2027-01-16'), [
      { day: '2027-01-14', signInsByMethod: { emoji: 2, password: 1 }, byApp: { app: 2, lanyard: 1 }, failures: 3 },
      { day: '2027-01-16', signInsByMethod: { badge: 1 }, byApp: {}, failures: 0 },
    ], 'oldest first; a day with only other events left out');
    t.same(await store.auditUsage(NORTH, '2027-01-15', '2027-01-16'), [{ day: '2027-01-16', signInsByMethod: { badge: 1 }, byApp: {}, failures: 0 }], 'the range, inclusive');
    t.same(await store.auditUsage(NORTH, '2027-01-17', '2027-01-16'), [], 'an empty range');
    t.same((await store.auditUsage(SOUTH, '2027-01-14', '2027-01-14'))[0]?.byApp, { app: 1 }, "another school's");
  });

  t.test('audit: purge removes what is older, with its use; a purged aggregate starts again', async (t) => {
    const { store } = await fresh(t);
    await fillTrail(store);
    await store.appendAudit([failure('f1', 0), failure('f2', 1)]);
    t.equal(await store.purgeAuditBefore(ev('x', 2).at), 3, 'the events before the instant (a merged row is one)');
    t.same(ids(await query(store)), ['e06', 'e04', 'e03'], 'the later ones stay');
    t.same(await store.auditUsage(NORTH, '2027-01-15', '2027-01-15'), [
      { day: '2027-01-15', signInsByMethod: { password: 1 }, byApp: { lanyard: 1 }, failures: 0 },
    ], 'use no longer counts them');
    await store.appendAudit([failure('f3', 10)]);
    t.same((await query(store, { kinds: ['sign_in_failed'] })).map((e) => [e.id, e.count]), [['f3', 1]], 'the key starts a new row');
    t.equal(await store.purgeAuditBefore(ev('x', 2).at), 0, 'nothing more to purge');
    t.equal(await store.purgeAuditBefore('2027-02-01T00:00:00.000Z'), 5, "the rest, every school's");
    t.same(await store.auditUsage(NORTH, '2027-01-01', '2027-01-31'), [], 'no use left');
  });

  t.test('audit: a purge of many events, in parts', async (t) => {
    const { store } = await fresh(t);
    const events = Array.from({ length: 2600 }, (_, i) => ev(`m${String(i).padStart(4, '0')}`, new Date(Date.UTC(2027, 0, 1) + i * 1000).toISOString(), { method: 'emoji' }));
    for (let i = 0; i < events.length; i += 400) await store.appendAudit(events.slice(i, i + 400));
    t.equal(await store.purgeAuditBefore(events[2550]!.at), 2550, 'all of them, however many parts');
    t.same(ids(await query(store, { limit: 100 })).length, 50, 'the rest');
    t.same((await store.auditUsage(NORTH, '2027-01-01', '2027-01-01'))[0]?.signInsByMethod, { emoji: 50 }, 'and their use');
  });

  t.test('audit: the store copy carries the trail, and importing it twice duplicates nothing', async (t) => {
    const source = await fresh(t);
    const target = await fresh(t);
    await fillTrail(source.store);
    await source.store.appendAudit([failure('f1', 0), failure('f2', 9)]);
    const entries: Extract<StoreEntry, { kind: 'audit_event' }>[] = [];
    for await (const e of source.store.exportEntries()) if (e.kind === 'audit_event') entries.push(e);
    t.same(entries.map((e) => e.value.id), ['e01', 'e02', 'e03', 'e04', 'e05', 'e06', 'f1'], 'oldest first');
    t.equal((await source.store.countEntries()).audit_event, 7, 'counted');
    await target.store.importEntries(entries);
    await target.store.importEntries(entries);
    t.equal((await target.store.countEntries()).audit_event, 7, 'the same count');
    for (const organisationId of [NORTH, SOUTH]) {
      t.same(await query(target.store, { organisationId }), await query(source.store, { organisationId }), 'the same events');
      t.same(await target.store.auditUsage(organisationId, '2027-01-15', '2027-01-15'), await source.store.auditUsage(organisationId, '2027-01-15', '2027-01-15'), 'the same use');
    }
    t.same(ids(await query(target.store, { userIds: [PIP] })), ['f1', 'e04', 'e02', 'e01'], 'indexes rebuilt');
    await target.store.appendAudit([failure('f3', 30)]);
    t.same((await query(target.store, { kinds: ['sign_in_failed'] })).map((e) => [e.id, e.count]), [['f1', 3]], 'the aggregate key rebuilt: it still merges');
  });

  t.test('audit: the trail survives a restart', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) {
      t.pass('no durable location');
      return;
    }
    await fillTrail(store);
    const before = await query(store);
    await store.close();
    const again = await reopen();
    t.same(await query(again), before);
  });
}
