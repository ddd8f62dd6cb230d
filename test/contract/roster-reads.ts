import type { Test } from 'tap';
import { type Fresh } from './harness.js';
import {
  NORTH, PAM, PIP, SOUTH, TESS, enrol, enrolmentOrder, fillRoster, membershipOrder, noChanges, rosterState, run, sampleClass, sampleSession,
} from './roster-fixtures.js';

/** The roster (adapters/store/roster.ts) as it is read: classes, enrolments, sessions, memberships, sign-ins, runs, leavers. */
export function rosterReadsContract(t: Test, fresh: Fresh): void {
  t.test('roster: classes with their teachers and pupil counts; found by id or sourced id', async (t) => {
    const { store } = await fresh(t);
    const { classes } = await fillRoster(store);
    await store.applyRoster({
      ...noChanges(run('run-2', '2027-01-16T00:00:00.000Z')),
      classes: { put: [sampleClass('c0', 'Art 5', { sourcedId: 'a-first' }), sampleClass('s1', 'South class', { organisationId: SOUTH })], remove: [] },
      // Pip teaches now: the same person's enrolment in a class is replaced.
      enrolments: { put: [enrol('c1', PIP, 'teacher'), enrol('s1', PAM, 'student')], remove: [] },
    });
    const listed = await store.listClasses(NORTH);
    t.same(listed.map((c) => [c.id, c.title, c.sourcedId]), [['c0', 'Art 5', 'a-first'], ['c2', 'Art 5', 'src-c2'], ['c1', 'Maths 5', 'src-c1']],
      'by title, then sourced id');
    const maths = listed.find((c) => c.id === 'c1')!;
    t.same(maths.teachers, [{ userId: TESS, givenName: 'TESS', familyName: 'tessson' }, { userId: PIP, givenName: 'PIP', familyName: 'pipson' }],
      'teachers, the primary first');
    t.equal(maths.pupils, 1, 'pupils counted');
    t.same({ ...maths, teachers: undefined, pupils: undefined }, { ...classes[0], teachers: undefined, pupils: undefined }, 'the class itself');
    t.same(listed.find((c) => c.id === 'c0'), { ...sampleClass('c0', 'Art 5', { sourcedId: 'a-first' }), teachers: [], pupils: 0 }, 'an empty class');
    t.same((await store.listClasses(SOUTH)).map((c) => [c.id, c.pupils]), [['s1', 1]], "another school's classes");
    t.same(await store.findClass(NORTH, 'c1'), classes[0], 'by id');
    t.same(await store.findClass(NORTH, 'src-c1'), classes[0], 'by sourced id');
    t.equal(await store.findClass(SOUTH, 'c1'), undefined, "not another school's");
    t.equal(await store.findClass(NORTH, 'nope'), undefined, 'unknown');
    t.same((await store.classEnrolments('c1')).map((e) => [e.userId, e.role]), [[TESS, 'teacher'], [PIP, 'teacher'], [PAM, 'student']], 'a class\'s enrolments, by user');
  });

  t.test('roster: enrolments, academic sessions and memberships as listed', async (t) => {
    const { store } = await fresh(t);
    const { enrolments, memberships } = await fillRoster(store);
    t.same(await store.organisationEnrolments(NORTH), [...enrolments].sort(enrolmentOrder), "the school's enrolments, by class and user");
    t.same(await store.organisationEnrolments(SOUTH), [], 'none elsewhere');
    for (const userId of new Set(enrolments.map((e) => e.userId))) {
      t.same(await store.userEnrolments(userId), enrolments.filter((e) => e.userId === userId).sort(enrolmentOrder), `${userId}'s enrolments, by class`);
    }
    t.same(await store.userEnrolments('u-nobody'), [], 'none for someone in no class');
    await store.applyRoster({
      ...noChanges(run('run-2', '2027-01-16T00:00:00.000Z')),
      academicSessions: { put: [sampleSession({ id: 'as-t2', sourcedId: 't2', startDate: '2027-01-05' }), sampleSession({ id: 'as-t1', sourcedId: 't1', startDate: '2026-09-01' })], remove: [] },
      memberships: { put: [{ userId: TESS, organisationId: SOUTH, role: 'administrator' }], remove: [] },
    });
    t.same((await store.listAcademicSessions(NORTH)).map((s) => s.sourcedId), ['sy-2027', 't1', 't2'], 'sessions by start date, then sourced id');
    t.same(await store.listAcademicSessions(SOUTH), [], 'none elsewhere');
    t.same(await store.userMemberships(TESS), [...memberships, { userId: TESS, organisationId: SOUTH, role: 'administrator' }].sort(membershipOrder),
      'two roles at one school');
    t.same(await store.userMemberships(PIP), [], 'none');
  });

  t.test('roster: recordSignIn keeps the last sign-in of each user', async (t) => {
    const { store } = await fresh(t);
    await fillRoster(store);
    await store.recordSignIn(PIP, '2027-01-15T08:00:00.000Z');
    await store.recordSignIn(PIP, '2027-01-16T08:00:00.000Z');
    await store.recordSignIn(TESS, '2027-01-15T09:00:00.000Z');
    await store.recordSignIn('u199999999999999', '2027-01-15T09:00:00.000Z');
    t.same(await store.lastSignIns(NORTH), new Map([[PIP, '2027-01-16T08:00:00.000Z'], [TESS, '2027-01-15T09:00:00.000Z']]),
      'the latest of each; never signed in: absent; an unknown user: ignored');
    t.same(await store.lastSignIns(SOUTH), new Map(), "another school's");
    t.same((await store.findUser(PIP))?.sessionsValidAfter, undefined, 'the user record is not touched');
  });

  t.test('roster: listRosterImports, newest first, limited', async (t) => {
    const { store } = await fresh(t);
    t.same(await store.listRosterImports(10), [], 'none yet');
    await store.applyRoster(noChanges(run('run-b', '2027-01-02T00:00:00.000Z')));
    await store.applyRoster(noChanges(run('run-c', '2027-01-03T00:00:00.000Z', { organisations: ['a', 'b'], format: 'one-file' })));
    await store.applyRoster(noChanges(run('run-a', '2027-01-01T00:00:00.000Z')));
    t.same((await store.listRosterImports(10)).map((r) => r.id), ['run-c', 'run-b', 'run-a'], 'newest first');
    t.same(await store.listRosterImports(1), [run('run-c', '2027-01-03T00:00:00.000Z', { organisations: ['a', 'b'], format: 'one-file' })], 'limited, whole');
  });

  t.test('roster: deleting a user removes their enrolments, memberships and sign-in', async (t) => {
    const { store } = await fresh(t);
    await fillRoster(store);
    await store.recordSignIn(TESS, '2027-01-15T09:00:00.000Z');
    await store.applyRoster({ ...noChanges(run('run-2', '2027-01-16T00:00:00.000Z')), holds: [{ userId: TESS, hold: 'left', at: '2027-01-16T00:00:00.000Z' }] });
    t.equal(await store.deleteUser(TESS, '2027-04-16T00:00:00.000Z'), true);
    t.same((await store.organisationEnrolments(NORTH)).map((e) => e.userId).filter((id) => id === TESS), [], 'no enrolments');
    t.same((await store.listClasses(NORTH)).find((c) => c.id === 'c1')?.teachers, [], 'no longer teaching');
    t.same(await store.userMemberships(TESS), [], 'no memberships');
    t.same((await store.rosterSnapshot([SOUTH])).memberships, [], 'nor in the other school');
    t.same(await store.lastSignIns(NORTH), new Map(), 'no sign-in time');
    t.same(await store.leaversBefore('2028-01-01T00:00:00.000Z'), [], 'not a leaver any more');
    t.same((await rosterState(store)).users.map((u) => u.id), [PIP, PAM].sort(), 'the others stay');
    await store.upsertUser({ organisationId: NORTH, username: 'tess', givenName: 'T', familyName: 'S', type: 'teacher' });
    t.same(await store.userMemberships((await store.findUserByUsername(NORTH, 'tess'))!.id), [], 'a new user of the same name starts afresh');
  });

  t.test("roster: the JSON import keeps the roster's source id and hold; the organisation's source id stays", async (t) => {
    const { store } = await fresh(t);
    await fillRoster(store);
    await store.applyRoster({ ...noChanges(run('run-2', '2027-01-16T00:00:00.000Z')), holds: [{ userId: PIP, hold: 'disabled', at: '2027-01-16T00:00:00.000Z' }] });
    const updated = await store.upsertUser({ organisationId: NORTH, username: 'pip', givenName: 'Pipa', familyName: 'P', type: 'student' });
    t.same([updated.id, updated.givenName, updated.sourceId, updated.rosterHold, updated.rosterHoldSince],
      [PIP, 'Pipa', 'src-pip', 'disabled', '2027-01-16T00:00:00.000Z'], 'returned as stored');
    t.same(await store.findUser(PIP), updated, 'and found so');
    const fresh1 = await store.upsertUser({ organisationId: NORTH, username: 'newbie', givenName: 'N', familyName: 'B', type: 'student' });
    t.same([fresh1.sourceId, fresh1.rosterHold], [undefined, undefined], 'a user the roster never saw has neither');
    await store.upsertOrganisation({ slug: 'north', name: 'North (JSON)' });
    t.same((await store.findOrganisation('north'))?.sourceId, 'org-north', "the organisation's source id survives the JSON import");
    await store.upsertOrganisation({ slug: 'north', name: 'North', sourceId: 'org-north-2' });
    t.same((await store.findOrganisation('north'))?.sourceId, 'org-north-2', 'and changes when one is given');
  });

  t.test('roster: what the roster wrote survives a restart', async (t) => {
    const { store, reopen } = await fresh(t);
    if (!reopen) {
      t.pass('no durable location');
      return;
    }
    await fillRoster(store);
    await store.applyRoster({ ...noChanges(run('run-2', '2027-01-16T00:00:00.000Z')), holds: [{ userId: PAM, hold: 'left', at: '2027-01-16T00:00:00.000Z' }] });
    await store.recordSignIn(PIP, '2027-01-16T08:00:00.000Z');
    const before = { state: await rosterState(store), org: await store.findOrganisation(NORTH), pam: await store.findUser(PAM) };
    await store.close();
    const again = await reopen();
    t.same({ state: await rosterState(again), org: await again.findOrganisation(NORTH), pam: await again.findUser(PAM) }, before, 'all of it');
    t.equal((await again.findUser(PAM))?.rosterHold, 'left', 'the hold too');
    t.same(await again.lastSignIns(NORTH), new Map([[PIP, '2027-01-16T08:00:00.000Z']]), 'and the sign-in');
  });
}
