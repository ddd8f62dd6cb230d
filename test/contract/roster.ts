import type { Test } from 'tap';
import {
  type AcademicSession, type Enrolment, type Membership, type RosterChanges, type RosterClass, type RosterImportRun,
  type RosterUser, type Store,
} from '../../adapters/store.js';
import { byKeys } from '../../adapters/store/collation.js';
import { LanyardError } from '../../src/errors.js';
import { type Fresh, START } from './harness.js';

/** The roster (adapters/store/roster.ts): one import's changes applied all or nothing, and read back. */

export const NORTH = 'o100000000000001';
export const SOUTH = 'o100000000000002';
export const TESS = 'u100000000000001';
export const PIP = 'u100000000000002';
export const PAM = 'u100000000000003';

const user = (id: string, username: string, type: string, over: Partial<RosterUser> = {}): RosterUser => ({
  id, organisationId: NORTH, username, givenName: username.toUpperCase(), familyName: `${username}son`, type, sourceId: `src-${username}`, ...over,
});

export const sampleSession = (over: Partial<AcademicSession> = {}): AcademicSession => ({
  id: 'as-2027', organisationId: NORTH, sourcedId: 'sy-2027', title: '2026-2027', type: 'schoolYear', startDate: '2026-09-01',
  endDate: '2027-07-15', schoolYear: '2027', ...over,
});

export const sampleClass = (id: string, title: string, over: Partial<RosterClass> = {}): RosterClass => ({
  id, organisationId: NORTH, sourcedId: `src-${id}`, title, classCode: `${title}-code`, classType: 'scheduled',
  courseSourcedId: 'course-1', courseTitle: 'Course', courseCode: 'C1', location: 'Room 4', grades: ['05'], subjects: ['Maths'],
  periods: ['1', '2'], academicSessionIds: ['sy-2027'], ...over,
});

const enrol = (classId: string, userId: string, role: string, primary = false): Enrolment => ({
  classId, userId, role, primary, sourcedId: `e-${classId}-${userId}`, beginDate: '2026-09-01',
});

export const run = (id: string, at: string, over: Partial<RosterImportRun> = {}): RosterImportRun => ({
  id, at, by: 'cli:admin', format: 'oneroster-1.1', digest: `sha-${id}`, organisations: ['north'],
  counts: { users: { added: 3, changed: 0, unchanged: 0, leaving: 0 } }, ...over,
});

/** A change that changes nothing but records its run. */
export const noChanges = (r: RosterImportRun): RosterChanges => ({
  organisations: [], users: [], holds: [], memberships: { put: [], remove: [] }, academicSessions: { put: [], remove: [] },
  classes: { put: [], remove: [] }, enrolments: { put: [], remove: [] }, run: r,
});

/**
 * A school (North, made by the roster) and a second (South, already there), a teacher and two pupils, a
 * school year, two classes with their enrolments, and the teacher's membership of South.
 */
export async function fillRoster(store: Store) {
  await store.upsertOrganisation({ id: SOUTH, slug: 'south', name: 'South School' });
  const users = [
    user(TESS, 'tess', 'teacher', { email: 'tess@north.example', rosterId: 'r-tess' }),
    user(PIP, 'pip', 'student', { email: 'pip@north.example' }),
    user(PAM, 'pam', 'student'),
  ];
  const classes = [sampleClass('c1', 'Maths 5'), sampleClass('c2', 'Art 5', { classCode: undefined, grades: [], periods: [] })];
  const enrolments = [enrol('c1', TESS, 'teacher', true), enrol('c1', PIP, 'student'), enrol('c1', PAM, 'student'), enrol('c2', PIP, 'student')];
  const memberships: Membership[] = [{ userId: TESS, organisationId: SOUTH, role: 'teacher' }];
  await store.applyRoster({
    ...noChanges(run('run-1', '2027-01-15T12:00:00.000Z')),
    organisations: [{ id: NORTH, slug: 'north', name: 'North School', sourceId: 'org-north' }],
    users,
    memberships: { put: memberships, remove: [] },
    academicSessions: { put: [sampleSession()], remove: [] },
    classes: { put: classes, remove: [] },
    enrolments: { put: enrolments, remove: [] },
  });
  return { users, classes, enrolments, memberships };
}

const byId = byKeys<{ id: string }>((r) => r.id);
const enrolmentOrder = byKeys<Enrolment>((e) => e.classId, (e) => e.userId);
const membershipOrder = byKeys<Membership>((m) => m.userId, (m) => m.organisationId, (m) => m.role);

/** The roster's state, in a fixed order, for comparing before and after. */
export async function rosterState(store: Store, orgs = [NORTH, SOUTH]) {
  const s = await store.rosterSnapshot(orgs);
  return {
    users: [...s.users].sort(byId),
    memberships: [...s.memberships].sort(membershipOrder),
    academicSessions: [...s.academicSessions].sort(byId),
    classes: [...s.classes].sort(byId),
    enrolments: [...s.enrolments].sort(enrolmentOrder),
    imports: await store.listRosterImports(100),
  };
}

/** Records of every model a session leaves, for the account (as account-sessions.ts). */
const MODELS = ['Session', 'Grant', 'AccessToken', 'RefreshToken'];
const recordsOf = async (store: Store, accountId: string) => {
  for (const m of MODELS) await store.oidc.upsert(m, `${m}-${accountId}`, { accountId, grantId: `g-${accountId}` }, 600);
};
const liveRecords = async (store: Store, accountId: string) => {
  const found: string[] = [];
  for (const m of MODELS) if (await store.oidc.find(m, `${m}-${accountId}`)) found.push(m);
  return found;
};

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
