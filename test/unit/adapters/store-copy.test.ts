import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { openSqliteStore } from '../../../adapters/sqlite.js';
import { ENTRY_KINDS, type Store } from '../../../adapters/store.js';
import { progressLine } from '../../../src/cli/store-command.js';
import { ManualClock } from '../../../src/clock.js';
import { LanyardError } from '../../../src/errors.js';
import { copyStore, type CopyProgress, describeCounts, type KindCounts, verifyCounts } from '../../../adapters/store-copy.js';
import { fillRoster, NORTH, PIP, rosterState } from '../../contract/roster-fixtures.js';

/** The copy service on real SQLite files, time on a ManualClock shared by both stores (as the command shares one). */

const START = new Date('2027-03-01T08:00:00.000Z');

function stores(t: Test): { clock: ManualClock; source: Store; target: Store } {
  const dir = mkdtempSync(join(tmpdir(), 'lanyard-copy-unit-'));
  const clock = new ManualClock(START);
  const source = openSqliteStore(join(dir, 'source.db'), clock);
  const target = openSqliteStore(join(dir, 'target.db'), clock);
  t.teardown(async () => {
    await source.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { clock, source, target };
}

async function fill(store: Store): Promise<void> {
  const org = await store.upsertOrganisation({ slug: 'north', name: 'North School' });
  for (const username of ['ann', 'bob', 'cyd']) {
    await store.upsertUser({ organisationId: org.id, username, givenName: username, familyName: 'X', type: 'student' });
  }
  await store.oidc.upsert('Session', 's-long', { uid: 'u1' }, 3600);
  await store.oidc.upsert('AccessToken', 'at-short', { grantId: 'g' }, 30);
}

const counts = (values: Partial<KindCounts>): KindCounts =>
  Object.fromEntries(ENTRY_KINDS.map((k) => [k, values[k] ?? 0])) as KindCounts;

t.test('batches never span kinds, and every kind is reported done in order, empty ones too', async (t) => {
  const { clock, source, target } = stores(t);
  await fill(source);
  const events: CopyProgress[] = [];
  const report = await copyStore(source, target, { clock, batchSize: 2, onProgress: (p) => events.push(p) });

  t.same(events.filter((e) => e.type === 'kind-done').map((e) => e.kind), ENTRY_KINDS, 'each kind once, in order');
  t.same(events.filter((e) => e.type === 'batch').map((e) => [e.kind, e.copied]),
    [['organisation', 1], ['user', 3], ['user', 4], ['oidc', 6]], 'batches of at most 2, cut at each kind');
  t.ok(events.every((e) => e.total === 6), 'total from the count at the start');
  t.same(events.find((e) => e.type === 'kind-done' && e.kind === 'user'), { type: 'kind-done', kind: 'user', count: 3, copied: 4, total: 6 });
  t.equal(report.entries, 6);
  t.same(report.copied, counts({ organisation: 1, user: 3, oidc: 2 }));
  t.same(report.held, report.copied);
  t.same(report.shortfalls, [], 'verified');
});

t.test("the roster's kinds are copied after the users and classes they refer to, and verified", async (t) => {
  const { clock, source, target } = stores(t);
  await fillRoster(source);
  await source.recordSignIn(PIP, START.toISOString());
  const events: CopyProgress[] = [];
  const report = await copyStore(source, target, { clock, batchSize: 3, onProgress: (p) => events.push(p) });
  const batches = events.flatMap((e) => (e.type === 'batch' ? [e.kind] : []));
  t.same(batches, ['organisation', 'user', 'academic_session', 'class', 'enrolment', 'enrolment', 'membership', 'roster_import', 'sign_in'],
    'in dependency order, in batches of at most 3');
  t.same(report.copied, counts({ organisation: 2, user: 3, academic_session: 1, class: 2, enrolment: 4, membership: 1, roster_import: 1, sign_in: 1 }));
  t.same(report.shortfalls, [], 'verified');
  t.same(await rosterState(target), await rosterState(source), 'the same roster');
  t.same(await target.lastSignIns(NORTH), await source.lastSignIns(NORTH), 'and sign-in times');
});

t.test('a target that holds entries is refused, and accepted with merge', async (t) => {
  const { clock, source, target } = stores(t);
  await fill(source);
  await target.putSetting('theme', 'blue');
  await t.rejects(copyStore(source, target, { clock }), new LanyardError('store_copy_target_not_empty',
    'the target already holds 1 entry (setting 1): copy into an empty store, or add to this one on purpose with --merge'));
  t.equal((await target.countEntries()).user, 0, 'nothing written');

  const report = await copyStore(source, target, { clock, merge: true });
  t.same(report.shortfalls, []);
  t.equal(report.held.setting, 1, 'its own setting kept');
  t.equal(report.held.user, 3);
});

t.test('a token that expires during the copy is not a verification failure', async (t) => {
  const { clock, source, target } = stores(t);
  await fill(source);
  const report = await copyStore(source, target, {
    clock,
    // The copy is slow: by the time the oidc records are in, the short token has run out.
    onProgress: (p) => { if (p.type === 'kind-done' && p.kind === 'oidc') clock.advance(31_000); },
  });
  t.equal(report.copied.oidc, 2, 'both records copied');
  t.equal(report.held.oidc, 1, 'one still live in the target');
  t.equal(report.expected.oidc, 1, 'and one expected');
  t.same(report.shortfalls, []);
});

t.test('records already expired at the source stay behind', async (t) => {
  const { clock, source, target } = stores(t);
  await fill(source);
  clock.advance(60_000);
  const report = await copyStore(source, target, { clock });
  t.equal(report.copied.oidc, 1, 'only the live session');
  t.equal(await target.oidc.find('AccessToken', 'at-short'), undefined);
  t.same(await target.oidc.findByUid('Session', 'u1'), { uid: 'u1' });
});

t.test('verifyCounts names each kind the target is short of', async (t) => {
  t.same(verifyCounts(counts({ user: 3, oidc: 2 }), counts({ user: 3, oidc: 5 })), [], 'more is fine (a merge)');
  t.same(verifyCounts(counts({ user: 3, key: 2 }), counts({ user: 2, key: 0, setting: 4 })),
    [{ kind: 'user', expected: 3, held: 2 }, { kind: 'key', expected: 2, held: 0 }]);
  t.equal(describeCounts(counts({})), '0 entries');
  t.equal(describeCounts(counts({ user: 2, organisation: 1 })), '3 entries (organisation 1, user 2)', 'kinds in dependency order');
});

t.test('copyStore refuses a batch size that is not a positive integer', async (t) => {
  const { clock, source, target } = stores(t);
  await t.rejects(copyStore(source, target, { clock, batchSize: 0 }), { code: 'store_copy_invalid' });
});

t.test('progressLine: a bar, counts, percentage and the kind; never past 100%', async (t) => {
  t.equal(progressLine(50, 200, 'user', 8), '[██░░░░░░] 50/200 25% user');
  t.equal(progressLine(0, 0, 'organisation', 4), '[████] 0/0 100% organisation', 'an empty store is done at once');
  t.equal(progressLine(210, 200, 'oidc', 4), '[████] 210/200 100% oidc', 'a source that grew during the copy');
});
