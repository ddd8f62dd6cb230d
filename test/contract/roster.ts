import type { Test } from 'tap';
import type { RosterChanges, RosterUser } from '../../adapters/store.js';
import { LanyardError } from '../../src/errors.js';
import { type Fresh, START } from './harness.js';
import {
  MODELS, NORTH, PAM, PIP, SOUTH, TESS, byId, enrol, enrolmentOrder, fillRoster, liveRecords, noChanges, recordsOf, rosterState, run, sampleClass, sampleSession, user,
} from './roster-fixtures.js';

/** The roster (adapters/store/roster.ts): one import's changes applied all or nothing. */
export function rosterContract(t: Test, fresh: Fresh): void {
  t.test('roster: applyRoster adds every kind, and rosterSnapshot reads it back', async (t) => {
    const { store } = await fresh(t);
    const { users, classes, enrolments, memberships } = await fillRoster(store);
    const north = await store.findOrganisation('north');
    t.same(north && { id: north.id, slug: north.slug, name: north.name, sourceId: north.sourceId },
      { id: NORTH, slug: 'north', name: 'North School', sourceId: 'org-north' }, 'a new organisation, with its source id');
    t.same((await store.findOrganisation('south'))?.sourceId, undefined, 'an organisation the roster never named has none');
    const state = await rosterState(store);
    t.same(state.users.map((u) => ({ ...u })), users.map((u) => ({ ...u })).sort(byId), 'users, every roster field');
    t.same(state.classes, [...classes].sort(byId), 'classes, lists included');
    t.same(state.academicSessions, [sampleSession()], 'the academic session');
    t.same(state.enrolments, [...enrolments].sort(enrolmentOrder), 'enrolments');
    t.same(state.memberships, memberships, 'memberships');
    t.same(state.imports, [run('run-1', '2027-01-15T12:00:00.000Z')], 'the run is recorded');
    const pip = await store.findUser(PIP);
    t.same([pip?.sourceId, pip?.rosterHold, pip?.suspendedAt], ['src-pip', undefined, undefined], 'found with its source id, no hold');
    t.same((await store.findUserByUsername(NORTH, 'tess'))?.rosterId, 'r-tess', 'the username index knows new users');
    t.same((await store.listUsers(NORTH)).map((u) => u.username), ['pam', 'pip', 'tess'], 'and the organisation lists them');
    const south = await store.rosterSnapshot([SOUTH]);
    t.same([south.users, south.classes, south.memberships], [[], [], memberships], "another school's snapshot: the memberships in it");
    t.same((await store.rosterSnapshot([])).users, [], 'no organisations, nothing');
  });

  t.test('roster: applyRoster updates and removes each kind', async (t) => {
    const { store } = await fresh(t);
    const { users } = await fillRoster(store);
    await store.setCredential(PIP, 'password', '$argon2id$pip');
    await store.setSuspended(PAM, '2027-01-10T00:00:00.000Z');
    const pamBefore = await store.findUser(PAM);
    // `lanyard import` matches Pip's Google and Microsoft accounts after the import's snapshot was taken.
    await store.upsertUser({ ...(await store.findUser(PIP))!, googleEmail: 'pip@gmail.example', microsoftEmail: 'pip@ms.example' });
    await store.applyRoster({
      ...noChanges(run('run-2', '2027-01-16T12:00:00.000Z')),
      organisations: [{ id: NORTH, slug: 'north', name: 'North Academy', sourceId: 'org-north' }],
      // Pip and Pam swap usernames; Tess loses her email and gets another source id.
      users: [
        { ...users[0]!, email: undefined, sourceId: 'src-tess-2', familyName: 'Teach' },
        { ...users[1]!, username: 'pam' },
        { ...users[2]!, username: 'pip' },
      ],
      memberships: { put: [{ userId: PIP, organisationId: SOUTH, role: 'student' }], remove: [{ userId: TESS, organisationId: SOUTH, role: 'teacher' }] },
      academicSessions: { put: [sampleSession({ id: 'as-t1', sourcedId: 't1', title: 'Term 1', type: 'term', parentSourcedId: 'sy-2027' })], remove: ['as-2027'] },
      classes: { put: [sampleClass('c2', 'Art 6', { grades: ['06'] })], remove: [] },
      enrolments: { put: [enrol('c2', TESS, 'teacher', true)], remove: [{ classId: 'c1', userId: PAM }] },
    });
    const tess = await store.findUser(TESS);
    t.same([tess?.email, tess?.sourceId, tess?.familyName], [undefined, 'src-tess-2', 'Teach'], 'an undefined field clears, the others change');
    t.equal((await store.findUserByUsername(NORTH, 'pam'))?.id, PIP, 'usernames swapped: pam is Pip now');
    t.equal((await store.findUserByUsername(NORTH, 'pip'))?.id, PAM, 'and pip is Pam');
    t.equal(await store.getCredential(PIP, 'password'), '$argon2id$pip', 'credentials are not the roster\'s');
    const pip = await store.findUser(PIP);
    t.same([pip?.googleEmail, pip?.microsoftEmail], ['pip@gmail.example', 'pip@ms.example'], 'nor the matched accounts: a change made meanwhile stays');
    const pam = await store.findUser(PAM);
    t.same([pam?.suspendedAt, pam?.sessionsValidAfter], [pamBefore?.suspendedAt, pamBefore?.sessionsValidAfter], 'nor a suspension');
    t.equal((await store.findOrganisation(NORTH))?.name, 'North Academy', 'organisation renamed');
    t.same((await store.findOrganisation(NORTH))?.login, (await store.findOrganisation(SOUTH))?.login, 'its sign-in settings kept');
    const state = await rosterState(store);
    t.same(state.memberships, [{ userId: PIP, organisationId: SOUTH, role: 'student' }], 'membership removed and added');
    t.same(state.academicSessions.map((s) => s.id), ['as-t1'], 'session removed and added');
    t.same(state.classes.map((c) => [c.id, c.title, c.grades]), [['c1', 'Maths 5', ['05']], ['c2', 'Art 6', ['06']]], 'class updated');
    t.same(state.enrolments.map((e) => [e.classId, e.userId, e.role]),
      [['c1', TESS, 'teacher'], ['c1', PIP, 'student'], ['c2', TESS, 'teacher'], ['c2', PIP, 'student']].sort(), 'enrolment removed and added');
    t.same(state.imports.map((r) => r.id), ['run-2', 'run-1'], 'both runs recorded');
  });

  t.test('roster: a person moves to another school; a removed class gives its sourced id to a new one', async (t) => {
    const { store } = await fresh(t);
    const { users } = await fillRoster(store);
    await store.applyRoster({
      ...noChanges(run('run-2', '2027-01-16T00:00:00.000Z')),
      users: [{ ...users[2]!, organisationId: SOUTH }],
      classes: { put: [sampleClass('c9', 'Maths 5 again', { sourcedId: 'src-c1' })], remove: ['c1'] },
    });
    t.equal((await store.findUserByUsername(SOUTH, 'pam'))?.id, PAM, 'found in the new school, same id');
    t.equal(await store.findUserByUsername(NORTH, 'pam'), undefined, 'not in the old one');
    t.same((await store.rosterSnapshot([SOUTH])).users.map((u) => [u.id, u.sourceId]), [[PAM, 'src-pam']], "the new school's snapshot");
    t.same((await store.listUsers(NORTH)).map((u) => u.username), ['pip', 'tess'], 'the old school lists the others');
    await store.applyRoster({ ...noChanges(run('run-3', '2027-01-17T00:00:00.000Z')), users: [user('u100000000000020', 'pam', 'student')] });
    t.equal((await store.findUserByUsername(NORTH, 'pam'))?.id, 'u100000000000020', 'her old username and source id are free for someone new');
    t.equal((await store.findClass(NORTH, 'src-c1'))?.id, 'c9', 'the sourced id now names the new class');
    t.same(await store.classEnrolments('c9'), [], 'which starts empty');
  });

  t.test('roster: a change that cannot be made is refused whole (409) and changes nothing', async (t) => {
    const { store } = await fresh(t);
    const { users } = await fillRoster(store);
    await store.upsertUser({ id: 'u100000000000009', organisationId: NORTH, username: 'gone', givenName: 'G', familyName: 'H', type: 'student' });
    await store.deleteUser('u100000000000009', START.toISOString());
    const before = await rosterState(store);
    const everything = (newcomer: RosterUser, over: Partial<RosterChanges> = {}): RosterChanges => ({
      ...noChanges(run('run-bad', '2027-01-17T12:00:00.000Z')),
      organisations: [{ id: NORTH, slug: 'north', name: 'Renamed', sourceId: 'org-north' }],
      users: [{ ...users[0]!, givenName: 'Changed' }, newcomer],
      holds: [{ userId: PIP, hold: 'left', at: '2027-01-17T12:00:00.000Z' }],
      memberships: { put: [], remove: [{ userId: TESS, organisationId: SOUTH, role: 'teacher' }] },
      academicSessions: { put: [], remove: ['as-2027'] },
      classes: { put: [sampleClass('c3', 'New')], remove: ['c2'] },
      enrolments: { put: [enrol('c3', TESS, 'teacher')], remove: [{ classId: 'c1', userId: PAM }] },
      ...over,
    });
    const refused = async (newcomer: RosterUser, what: string, over: Partial<RosterChanges> = {}) => {
      const err = await store.applyRoster(everything(newcomer, over)).then(() => undefined, (e: unknown) => e);
      t.ok(err instanceof LanyardError && err.code === 'conflict' && err.statusCode === 409, `${what}: a 409 conflict (${String(err)})`);
      t.same(await rosterState(store), before, `${what}: users, classes, enrolments, memberships and runs unchanged`);
      t.equal((await store.findOrganisation(NORTH))?.name, 'North School', `${what}: the organisation unchanged`);
    };
    await refused(user('u100000000000009', 'newbie', 'student'), 'the id of a deleted user');
    await refused(user('u100000000000010', 'PAM', 'student'), 'a username another user holds');
    await refused(user('u100000000000011', 'newbie', 'student', { sourceId: 'src-pam' }), 'a source id another user holds');
    const newbie = user('u100000000000012', 'newbie', 'student');
    await refused(newbie, "a class taking another's sourced id", { classes: { put: [sampleClass('c3', 'New', { sourcedId: 'src-c1' })], remove: [] } });
    await refused(newbie, 'an enrolment in a class that does not exist', { enrolments: { put: [enrol('nope', PIP, 'student')], remove: [] } });
    await refused(newbie, 'an enrolment of a user who does not exist', { enrolments: { put: [enrol('c1', 'u100000000000099', 'student')], remove: [] } });
    await refused(newbie, 'a class of a school that does not exist', { classes: { put: [sampleClass('c3', 'New', { organisationId: 'o100000000000099' })], remove: [] } });
    t.equal(await store.findUserByUsername(NORTH, 'newbie'), undefined, 'no newcomer');
    t.equal(await store.isRetiredUserId('u100000000000009'), true, 'the id stays retired');
  });

  t.test('roster: a hold ends the sessions; left also voids the badges; lifting it changes nothing else', async (t) => {
    const { store } = await fresh(t);
    await fillRoster(store);
    for (const id of [TESS, PIP, PAM]) {
      await recordsOf(store, id);
      await store.issueBadge(id, NORTH, `badge-${id}`);
    }
    const at = '2027-01-20T08:00:00.000Z';
    const before = Date.now();
    await store.applyRoster({
      ...noChanges(run('run-2', at)),
      holds: [{ userId: PIP, hold: 'disabled', at }, { userId: PAM, hold: 'left', at }],
    });
    const after = Date.now();
    const [pip, pam] = [await store.findUser(PIP), await store.findUser(PAM)];
    t.same([pip?.rosterHold, pip?.rosterHoldSince, pam?.rosterHold, pam?.rosterHoldSince], ['disabled', at, 'left', at], 'holds set');
    t.same([await liveRecords(store, PIP), await liveRecords(store, PAM)], [[], []], 'their sessions, grants and tokens are gone');
    t.ok(pip?.sessionsValidAfter !== undefined && pip.sessionsValidAfter >= before && pip.sessionsValidAfter <= after, 'sessionsValidAfter moved to now');
    t.same(await liveRecords(store, TESS), MODELS, 'another user keeps hers');
    t.same(await store.findBadge(`badge-${PIP}`), { userId: PIP, organisationId: NORTH }, 'disabled: the badge is kept');
    t.equal(await store.findBadge(`badge-${PAM}`), undefined, 'left: the badge is void');
    t.same(await store.badgeHolders(NORTH), new Set([TESS, PIP]), 'and no longer held');
    t.same((await store.leaversBefore(at)).map((u) => u.id), [PAM], 'the leaver, from the instant the hold began');
    t.same(await store.leaversBefore('2027-01-20T07:59:59.999Z'), [], 'not before');

    const validAfter = pip?.sessionsValidAfter;
    await recordsOf(store, PIP);
    await store.applyRoster({ ...noChanges(run('run-3', '2027-01-21T08:00:00.000Z')), holds: [{ userId: PIP, hold: undefined, at: '2027-01-21T08:00:00.000Z' }] });
    const lifted = await store.findUser(PIP);
    t.same([lifted?.rosterHold, lifted?.rosterHoldSince, lifted?.sessionsValidAfter], [undefined, undefined, validAfter], 'lifted; nothing else moved');
    t.same(await liveRecords(store, PIP), MODELS, 'lifting ends nothing');
    t.equal((await store.findUser(PAM))?.rosterHold, 'left', 'the other hold stays');
  });

  t.test('roster: removing a class removes its enrolments', async (t) => {
    const { store } = await fresh(t);
    await fillRoster(store);
    await store.applyRoster({ ...noChanges(run('run-2', '2027-01-16T00:00:00.000Z')), classes: { put: [], remove: ['c1'] } });
    t.same(await store.classEnrolments('c1'), [], 'none left in the class');
    t.same((await store.organisationEnrolments(NORTH)).map((e) => [e.classId, e.userId]), [['c2', PIP]], 'nor in the school');
    t.equal(await store.findClass(NORTH, 'c1'), undefined, 'the class is gone');
    await store.applyRoster({ ...noChanges(run('run-3', '2027-01-17T00:00:00.000Z')), classes: { put: [sampleClass('c1', 'Maths 5')], remove: [] } });
    t.same(await store.classEnrolments('c1'), [], 'the same class again starts empty');
  });
}
