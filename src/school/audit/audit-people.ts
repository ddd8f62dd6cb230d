import type { Store, User } from '../../../adapters/store.js';
import { compareNoCase } from '../../../adapters/store/collation.js';
import { classOf, type SchoolAccess } from '../access.js';
import { SchoolInputError } from '../errors.js';
import { fullName } from '../names.js';
import type { AuditQuery } from './audit-query.js';

/**
 * Whose events a query of the audit trail asks for (docs/school-console.md → Audit and usage): the people a
 * name or username search finds in the school, one person by id, a class's people (every role), or the
 * overlap when several are given. Only people and classes of the school: a class of another school is a 404
 * (access.ts), a search never reaches beyond the school.
 */

/** More people than this from one search: the filter asks for a closer search instead. */
export const MOST_PEOPLE = 500;

export interface AuditPeople {
  /** The user ids to filter by; undefined: anyone. An empty list matches nothing. */
  userIds: string[] | undefined;
  /** The people a name search found, by name (the page says who it is showing). */
  found?: User[] | undefined;
}

/** The people of the school: its own users, and those of other schools enrolled in its classes. */
async function schoolPeople(store: Store, school: SchoolAccess): Promise<User[]> {
  const organisationId = school.organisation.id;
  const [own, enrolments] = await Promise.all([store.listUsers(organisationId), store.organisationEnrolments(organisationId)]);
  const ownIds = new Set(own.map((u) => u.id));
  const visiting = [...new Set(enrolments.map((e) => e.userId).filter((id) => !ownIds.has(id)))];
  const others = (await Promise.all(visiting.map((id) => store.findUser(id)))).filter((u): u is User => !!u);
  return [...own, ...others];
}

/** The school's people whose name or username contains `search` (any case, accents as typed). */
export async function searchPeople(store: Store, school: SchoolAccess, search: string): Promise<User[]> {
  const needle = search.toLocaleLowerCase();
  const matches = (await schoolPeople(store, school)).filter((u) =>
    u.username.toLocaleLowerCase().includes(needle) || fullName(u).toLocaleLowerCase().includes(needle)
    || `${u.familyName} ${u.givenName}`.toLocaleLowerCase().includes(needle));
  if (matches.length > MOST_PEOPLE) {
    throw new SchoolInputError(`person: “${search}” matches more than ${MOST_PEOPLE} people; type more of the name`,
      [{ path: 'person', message: `matches more than ${MOST_PEOPLE} people; type more of the name` }]);
  }
  return matches.sort((a, b) => compareNoCase(a.familyName, b.familyName) || compareNoCase(a.givenName, b.givenName));
}

const overlap = (a: string[] | undefined, b: string[]): string[] => (a === undefined ? b : a.filter((id) => b.includes(id)));

export async function auditPeople(store: Store, school: SchoolAccess, query: AuditQuery): Promise<AuditPeople> {
  let userIds: string[] | undefined;
  let found: User[] | undefined;
  if (query.person !== undefined) {
    found = await searchPeople(store, school, query.person);
    userIds = found.map((u) => u.id);
  }
  // Any id: the trail is the school's own, so nothing of another school can show, and people since gone still do.
  if (query.userId !== undefined) userIds = overlap(userIds, [query.userId]);
  if (query.classId !== undefined) {
    const klass = await classOf(store, school, query.classId);
    userIds = overlap(userIds, [...new Set((await store.classEnrolments(klass.id)).map((e) => e.userId))]);
  }
  return { userIds, found };
}
