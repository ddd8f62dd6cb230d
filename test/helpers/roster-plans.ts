import type { Organisation, RosterChanges, RosterSnapshot, User } from '../../adapters/store.js';
import { DEFAULT_LOGIN_SETTINGS } from '../../adapters/store.js';
import { rosterSettings, type RosterSettings } from '../../src/config/roster.js';
import type { PlanContext } from '../../src/roster/plan/plan-types.js';
import type {
  RosterSource, SourceAcademicSession, SourceClass, SourceEnrollment, SourceKind, SourceMode, SourceOrg, SourceUser,
} from '../../src/roster/source.js';

/**
 * Hand-made rosters for the planner's tests: a RosterSource as a reader gives it, a stored snapshot, and the
 * store's way of applying a plan's changes (in memory), so a test can import twice.
 */

const at = (file: string, line: number) => ({ file, line });

let lines = 1;
const nextLine = () => (lines += 1);

export function org(sourcedId: string, name: string, o: Partial<SourceOrg> = {}): SourceOrg {
  return { sourcedId, name, type: 'school', status: 'active', at: at('orgs.csv', nextLine()), ...o };
}

export function person(sourcedId: string, username: string, school: string, role = 'student', o: Partial<SourceUser> = {}): SourceUser {
  const [givenName, familyName] = username.split('.');
  return {
    sourcedId, status: 'active', username, givenName: cap(givenName ?? username), familyName: cap(familyName ?? 'Doe'), enabled: true,
    roles: [{ orgSourcedId: school, role, primary: true }], grades: [], extra: {}, at: at('users.csv', nextLine()), ...o,
  };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function klass(sourcedId: string, title: string, school: string, o: Partial<SourceClass> = {}): SourceClass {
  return {
    sourcedId, title, status: 'active', schoolSourcedId: school, termSourcedIds: [], grades: [], subjects: [], periods: [],
    at: at('classes.csv', nextLine()), ...o,
  };
}

export function enrol(classSourcedId: string, userSourcedId: string, role = 'student', o: Partial<SourceEnrollment> = {}): SourceEnrollment {
  return {
    sourcedId: `e-${classSourcedId}-${userSourcedId}`, status: 'active', classSourcedId, userSourcedId, role, primary: false,
    at: at('enrollments.csv', nextLine()), ...o,
  };
}

export function term(sourcedId: string, title: string, o: Partial<SourceAcademicSession> = {}): SourceAcademicSession {
  return { sourcedId, title, type: 'term', status: 'active', at: at('academicSessions.csv', nextLine()), ...o };
}

/** A export: bulk for every kind given, absent for the others (or as `modes` says). */
export function source(parts: Partial<Omit<RosterSource, 'modes'>> & { modes?: Partial<Record<SourceKind, SourceMode>> } = {}): RosterSource {
  const mode = (kind: SourceKind, list: unknown[] | undefined): SourceMode => parts.modes?.[kind] ?? (list?.length ? 'bulk' : 'absent');
  return {
    format: parts.format ?? 'oneroster-1.1',
    modes: {
      orgs: mode('orgs', parts.orgs), academicSessions: mode('academicSessions', parts.academicSessions), courses: mode('courses', parts.courses),
      classes: mode('classes', parts.classes), users: mode('users', parts.users), enrollments: mode('enrollments', parts.enrollments),
    },
    orgs: parts.orgs ?? [], academicSessions: parts.academicSessions ?? [], courses: parts.courses ?? [], classes: parts.classes ?? [],
    users: parts.users ?? [], enrollments: parts.enrollments ?? [], notes: parts.notes ?? [], errors: parts.errors ?? [], digest: 'd1g3st',
  };
}

export const NOW = '2027-01-15T08:00:00.000Z';

/** A planner context whose new ids count up (o1001, u1002, …), so plans compare. */
export function context(organisations: Organisation[], o: Partial<Omit<PlanContext, 'settings'>> & { settings?: Partial<RosterSettings> } = {}): PlanContext {
  let n = 1000;
  return {
    organisations, now: NOW, allowMassRemoval: false, newId: (kind) => `${kind}${(n += 1)}`, ...o,
    settings: { ...rosterSettings({}), ...o.settings },
  };
}

export const school = (id: string, slug: string, o: Partial<Organisation> = {}): Organisation =>
  ({ id, slug, name: slug, login: DEFAULT_LOGIN_SETTINGS, ...o });

export function user(id: string, organisationId: string, username: string, o: Partial<User> = {}): User {
  const [givenName, familyName] = username.split('.');
  return { id, organisationId, username, givenName: cap(givenName ?? username), familyName: cap(familyName ?? 'Doe'), type: 'student', ...o };
}

export const emptySnapshot = (): RosterSnapshot => ({ users: [], memberships: [], academicSessions: [], classes: [], enrolments: [] });

/**
 * What a store holds after applyRoster(changes), in memory: users and organisations as the store writes them,
 * memberships keyed by (user, school, role) as the stores key them.
 */
export function applied(snapshot: RosterSnapshot, organisations: Organisation[], changes: Omit<RosterChanges, 'run'>): { snapshot: RosterSnapshot; organisations: Organisation[] } {
  const orgs = new Map(organisations.map((o) => [o.id, o]));
  for (const o of changes.organisations) orgs.set(o.id, { login: DEFAULT_LOGIN_SETTINGS, ...orgs.get(o.id), ...o });
  const users = new Map(snapshot.users.map((u) => [u.id, u]));
  for (const u of changes.users) users.set(u.id, { ...users.get(u.id), ...u });
  for (const h of changes.holds) {
    const u = users.get(h.userId)!;
    users.set(h.userId, { ...u, rosterHold: h.hold, rosterHoldSince: h.hold ? h.at : undefined });
  }
  const mKey = (m: { userId: string; organisationId: string; role: string }) => `${m.userId}/${m.organisationId}/${m.role}`;
  const memberships = new Map(snapshot.memberships.map((m) => [mKey(m), m]));
  for (const m of changes.memberships.remove) memberships.delete(mKey(m));
  for (const m of changes.memberships.put) memberships.set(mKey(m), m);
  const sessions = new Map(snapshot.academicSessions.map((s) => [s.id, s]));
  for (const id of changes.academicSessions.remove) sessions.delete(id);
  for (const s of changes.academicSessions.put) sessions.set(s.id, s);
  const classes = new Map(snapshot.classes.map((c) => [c.id, c]));
  for (const id of changes.classes.remove) classes.delete(id);
  for (const c of changes.classes.put) classes.set(c.id, c);
  const eKey = (e: { classId: string; userId: string }) => `${e.classId}/${e.userId}`;
  const enrolments = new Map(snapshot.enrolments.filter((e) => classes.has(e.classId)).map((e) => [eKey(e), e]));
  for (const e of changes.enrolments.remove) enrolments.delete(eKey(e));
  for (const e of changes.enrolments.put) enrolments.set(eKey(e), e);
  return {
    organisations: [...orgs.values()],
    snapshot: {
      users: [...users.values()], memberships: [...memberships.values()], academicSessions: [...sessions.values()],
      classes: [...classes.values()], enrolments: [...enrolments.values()],
    },
  };
}
