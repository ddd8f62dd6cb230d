import type { Store } from '../../../adapters/store.js';
import { compareNoCase } from '../../../adapters/store/collation.js';
import { classOf, type SchoolAccess } from '../access.js';
import { SchoolInputError } from '../errors.js';
import { matchPeople } from '../people-search.js';
import type { AuditQuery } from './audit-query.js';

/**
 * Whose events a query of the audit trail asks for (docs/school-console.md → Audit and usage): the people a
 * name or username search finds in the school (as the People page finds them: src/school/people-search.ts),
 * one person by id, a class's people (every role), or the overlap when several are given. Only people and
 * classes of the school: a class of another school is a 404 (access.ts), a search never reaches beyond it.
 */

/** More people than this from one search: the filter asks for a closer search instead. */
export const MOST_PEOPLE = 500;

/** A person a search found, as the page names them. */
export interface FoundPerson {
  id: string;
  username: string;
  givenName: string;
  familyName: string;
}

export interface AuditPeople {
  /** The user ids to filter by; undefined: anyone. An empty list matches nothing. */
  userIds: string[] | undefined;
  /** The people a name search found, by name (the page says whose events it shows). */
  found?: FoundPerson[] | undefined;
}

/** The school's people whose name or username has every word of `search` in it, by family then given name. */
export async function searchPeople(store: Store, school: SchoolAccess, search: string): Promise<FoundPerson[]> {
  const matches = await matchPeople(store, school.organisation, search);
  if (matches.length > MOST_PEOPLE) {
    throw new SchoolInputError(`person: “${search}” matches more than ${MOST_PEOPLE} people; type more of the name`,
      [{ path: 'person', message: `matches more than ${MOST_PEOPLE} people; type more of the name` }]);
  }
  return matches.sort((a, b) => compareNoCase(a.familyName, b.familyName) || compareNoCase(a.givenName, b.givenName));
}

const overlap = (a: string[] | undefined, b: string[]): string[] => (a === undefined ? b : a.filter((id) => b.includes(id)));

export async function auditPeople(store: Store, school: SchoolAccess, query: AuditQuery): Promise<AuditPeople> {
  let userIds: string[] | undefined;
  let found: FoundPerson[] | undefined;
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
