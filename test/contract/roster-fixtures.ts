import {
  type AcademicSession, type Enrolment, type Membership, type RosterChanges, type RosterClass, type RosterImportRun,
  type RosterUser, type Store,
} from '../../adapters/store.js';
import { byKeys } from '../../adapters/store/collation.js';

/** The roster contract's sample schools, people, classes and runs, and how its tests read a store's roster back. */

export const NORTH = 'o100000000000001';
export const SOUTH = 'o100000000000002';
export const TESS = 'u100000000000001';
export const PIP = 'u100000000000002';
export const PAM = 'u100000000000003';

export const user = (id: string, username: string, type: string, over: Partial<RosterUser> = {}): RosterUser => ({
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

export const enrol = (classId: string, userId: string, role: string, primary = false): Enrolment => ({
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

export const byId = byKeys<{ id: string }>((r) => r.id);
export const enrolmentOrder = byKeys<Enrolment>((e) => e.classId, (e) => e.userId);
export const membershipOrder = byKeys<Membership>((m) => m.userId, (m) => m.organisationId, (m) => m.role);

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
export const MODELS = ['Session', 'Grant', 'AccessToken', 'RefreshToken'];
export const recordsOf = async (store: Store, accountId: string) => {
  for (const m of MODELS) await store.oidc.upsert(m, `${m}-${accountId}`, { accountId, grantId: `g-${accountId}` }, 600);
};
export const liveRecords = async (store: Store, accountId: string) => {
  const found: string[] = [];
  for (const m of MODELS) if (await store.oidc.find(m, `${m}-${accountId}`)) found.push(m);
  return found;
};
