import type { Organisation, RosterClass, Store, User } from '../../adapters/store.js';
import { compareNoCase } from '../../adapters/store/collation.js';
import { isStaffElsewhere, TEACHING_ROLES } from '../accounts/school-staff.js';
import { personName } from '../audit/audit-people.js';
import { NotInSchoolError, SchoolInputError } from './errors.js';

/**
 * Who may do what in the school console: the one place it is decided (docs/school-console.md → Who may do
 * what). Every page and every /school/api route asks here, with the school from its address:
 *
 * - a **school admin** of a school (an `admin` grant: from the roster's administrator role, a school admin in
 *   the console, or the operator) sees and acts on every class and person of that school;
 * - a **teacher** (enrolled as `teacher` in one of the school's classes by the roster, or given the `teacher`
 *   role) sees their classes and acts on those classes' pupils only;
 * - anything else — another school, a class not theirs, a person in no class of theirs — is a 404, the same
 *   answer as an address that does not exist, so that nothing of another school is revealed;
 * - how a person signs in, and whether they may, is changed only for someone else, of this school, who is staff
 *   at no other school (mayChangeCredentials).
 */

/** What one member of staff may do in one school. */
export interface SchoolAccess {
  organisation: Organisation;
  admin: boolean;
  /** The classes they teach there (ids). An admin may act on every class besides. */
  teaches: ReadonlySet<string>;
}

/** A signed-in member of staff and the schools they work in, by name. */
export interface StaffMember {
  user: User;
  schools: SchoolAccess[];
}

/** The schools the user works in and in which role; `schools` is empty for someone who is not staff. */
export async function staffMember(store: Store, user: User): Promise<StaffMember> {
  const [grants, enrolments, memberships] = await Promise.all([
    store.userStaffGrants(user.id), store.userEnrolments(user.id), store.userMemberships(user.id),
  ]);
  const teaching = enrolments.filter((e) => TEACHING_ROLES.has(e.role)).map((e) => e.classId);
  const candidates = new Set([user.organisationId, ...memberships.map((m) => m.organisationId), ...grants.map((g) => g.organisationId)]);
  const schools: SchoolAccess[] = [];
  for (const organisationId of candidates) {
    const organisation = await store.findOrganisation(organisationId);
    if (!organisation) continue;
    const classes = (await Promise.all(teaching.map((id) => store.findClass(organisationId, id)))).filter((c): c is RosterClass => !!c);
    const mine = grants.filter((g) => g.organisationId === organisationId);
    const admin = mine.some((g) => g.role === 'admin');
    const teacher = classes.length > 0 || mine.some((g) => g.role === 'teacher');
    if (admin || teacher) schools.push({ organisation, admin, teaches: new Set(classes.map((c) => c.id)) });
  }
  schools.sort((a, b) => compareNoCase(a.organisation.name, b.organisation.name));
  return { user, schools };
}

/** Whether the member of staff must use two-step sign-in: a school admin anywhere must. */
export const needsSecondFactor = (member: StaffMember): boolean => member.schools.some((s) => s.admin);

/** The school an address names (its slug), as this member of staff may see it; a 404 otherwise. */
export function schoolOf(member: StaffMember, slug: string): SchoolAccess {
  const school = member.schools.find((s) => s.organisation.slug === slug);
  if (!school) throw new NotInSchoolError();
  return school;
}

/** Admin-only parts of a school (roster, people, staff, apps, audit): a teacher gets the same 404 as anyone. */
export function adminOf(member: StaffMember, slug: string): SchoolAccess {
  const school = schoolOf(member, slug);
  if (!school.admin) throw new NotInSchoolError();
  return school;
}

/** Whether the member of staff may see the class (an admin: every class of the school; a teacher: theirs). */
export const maySeeClass = (school: SchoolAccess, classId: string): boolean => school.admin || school.teaches.has(classId);

/** A class of the school the member of staff may see (by id or sourcedId); a 404 otherwise. */
export async function classOf(store: Store, school: SchoolAccess, idOrSourcedId: string): Promise<RosterClass> {
  const found = await store.findClass(school.organisation.id, idOrSourcedId);
  if (!found || !maySeeClass(school, found.id)) throw new NotInSchoolError();
  return found;
}

/** Whether the user belongs to the school: their own school, or a member of it (the roster's memberships). */
async function inSchool(store: Store, school: SchoolAccess, user: User): Promise<boolean> {
  if (user.organisationId === school.organisation.id) return true;
  return (await store.userMemberships(user.id)).some((m) => m.organisationId === school.organisation.id);
}

/**
 * A person the member of staff may act on: for an admin, anyone of the school; for a teacher, someone enrolled
 * in one of their classes (never another teacher of it, nor the teacher themselves). A 404 otherwise.
 */
export async function personOf(store: Store, school: SchoolAccess, userId: string): Promise<User> {
  const user = await store.findUser(userId);
  if (!user || !(await inSchool(store, school, user))) throw new NotInSchoolError();
  if (school.admin) return user;
  const enrolled = await store.userEnrolments(user.id);
  if (!enrolled.some((e) => e.role === 'student' && school.teaches.has(e.classId))) throw new NotInSchoolError();
  return user;
}

/** The pupils of a class the member of staff may see (classOf first), by family then given name. */
export async function classPupils(store: Store, school: SchoolAccess, klass: RosterClass): Promise<User[]> {
  if (!maySeeClass(school, klass.id)) throw new NotInSchoolError();
  const enrolments = (await store.classEnrolments(klass.id)).filter((e) => e.role === 'student');
  const users = (await Promise.all(enrolments.map((e) => store.findUser(e.userId)))).filter((u): u is User => !!u);
  return users.sort((a, b) => compareNoCase(a.familyName, b.familyName) || compareNoCase(a.givenName, b.givenName));
}

/**
 * Why the member of staff `actor` may not change how `person` signs in, or whether they may:
 * - `oneself`: one's own password is changed on one's Account page, with the current one, and another admin
 *   suspends;
 * - `other_school`: a member of the school's classes whose own school is another of the district is managed
 *   there;
 * - `staff_elsewhere`: a member of staff at another school too (a grant there, or teaching one of its classes):
 *   their credentials open that school's console, which this school's staff may not reach (they change their
 *   own password, or the operator does).
 */
export type CredentialRefusal = 'oneself' | 'other_school' | 'staff_elsewhere';

/** Why `actor` may not change `person`'s credentials or suspension in `school` (personOf first), or undefined when they may. */
export async function credentialRefusal(store: Store, school: SchoolAccess, person: User, actor: User): Promise<CredentialRefusal | undefined> {
  if (person.id === actor.id) return 'oneself';
  if (person.organisationId !== school.organisation.id) return 'other_school';
  return (await isStaffElsewhere(store, person.id, school.organisation.id)) ? 'staff_elsewhere' : undefined;
}

/** What the console says for a refusal. */
export function credentialRefusalText(refusal: CredentialRefusal, person: User): string {
  const name = personName(person);
  switch (refusal) {
    case 'oneself': return 'This is your own account: change your own password on your Account page; another admin of the school can do the rest.';
    case 'other_school': return `${name} belongs to another school of the district: their own school's admins manage how they sign in, and their suspension.`;
    case 'staff_elsewhere': return `${name} is a member of staff at another school too, so how they sign in, and their suspension, are not changed here: they change their own password, or the operator does.`;
  }
}

/** Those of `people` whose credentials `actor` may change in `school`, and the others with why not (credentialRefusal). */
export async function credentialsChangeable(
  store: Store, school: SchoolAccess, people: readonly User[], actor: User,
): Promise<{ allowed: User[]; refused: { user: User; refusal: CredentialRefusal }[] }> {
  const allowed: User[] = [];
  const refused: { user: User; refusal: CredentialRefusal }[] = [];
  for (const user of people) {
    const refusal = await credentialRefusal(store, school, user, actor);
    if (refusal) refused.push({ user, refusal });
    else allowed.push(user);
  }
  return { allowed, refused };
}

/**
 * Every change to how a person signs in or whether they may — new credentials of any kind, a password, a badge
 * voided, an unlock, a suspension or its end — asks here first (after personOf): resolves when `actor` may make
 * it, a SchoolInputError saying why not otherwise (credentialRefusal).
 */
export async function mayChangeCredentials(store: Store, school: SchoolAccess, person: User, actor: User): Promise<void> {
  const refusal = await credentialRefusal(store, school, person, actor);
  if (refusal) throw new SchoolInputError(credentialRefusalText(refusal, person));
}
