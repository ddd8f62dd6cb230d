import { randomUUID } from 'node:crypto';
import type { Enrolment, RosterChanges, RosterClass, RosterUser, Store, User } from '../../adapters/store.js';
import { newId } from '../../adapters/store/ids.js';

/**
 * A class put into a store the way a roster import writes it (Store.applyRoster): pupils made for it, their
 * enrolments as students, and existing users enrolled in other roles (a teacher).
 */
export interface TestClass {
  class: RosterClass;
  /** The pupils made, in the order given. */
  pupils: User[];
}

export const PUPIL_NAMES = [
  ['Ada', 'Jones'], ['Ben', 'Li'], ['Chloé', 'Dubois'], ['Łukasz', 'Wróblewski'], ['Zoë', 'Ng'], ['Oliver', 'Smith'],
  ['Priya', 'Ramanathan'], ['Sam', 'Okafor'], ['Yusuf', 'Ahmed'], ['Hana', 'Tanaka'], ['Finn', "O'Brien"], ['Siobhán', 'Ní Bhriain'],
  ['Mateo', 'García'], ['Grace', 'Adeyemi'], ['Amira', 'Haddad'], ['Noah', 'Becker'], ['Maya', 'Cohen'], ['Leo', 'Rossi'],
  ['Ines', 'Silva'], ['Omar', 'Farouk'], ['Ella', 'Kowalski'], ['Jonas', 'Berg'], ['Lina', 'Sato'], ['Arjun', 'Mehta'],
  ['Sofia', 'Petrova'], ['Kofi', 'Mensah'], ['Mila', 'Novak'], ['Theo', 'Laurent'], ['Aisha', 'Bello'], ['Ravi', 'Iyer'],
] as const;

export async function putClass(store: Store, o: {
  organisationId: string; sourcedId: string; title: string; pupils: readonly (readonly [string, string])[]; prefix: string;
  others?: { user: User; role: string }[];
}): Promise<TestClass> {
  const cls: RosterClass = {
    id: `c${randomUUID().replace(/-/g, '')}`, organisationId: o.organisationId, sourcedId: o.sourcedId, title: o.title,
    grades: [], subjects: [], periods: [], academicSessionIds: [],
  };
  const users: RosterUser[] = o.pupils.map(([given, family], i) => ({
    id: newId('u'), organisationId: o.organisationId, username: `${o.prefix}${i + 1}`, givenName: given, familyName: family,
    type: 'student', sourceId: `${o.prefix}-src-${i + 1}`,
  }));
  const enrolments: Enrolment[] = [
    ...users.map((u) => ({ classId: cls.id, userId: u.id, role: 'student', primary: false })),
    ...(o.others ?? []).map(({ user, role }) => ({ classId: cls.id, userId: user.id, role, primary: role === 'teacher' })),
  ];
  await store.applyRoster(changes({ users, classes: { put: [cls], remove: [] }, enrolments: { put: enrolments, remove: [] } }));
  const pupils = await Promise.all(users.map(async (u) => (await store.findUser(u.id))!));
  return { class: cls, pupils };
}

/**
 * Enrols a user whose own school is another one in `cls`, as a member of the class's school (a Membership),
 * the way an import writes a pupil or teacher who belongs to two schools of a district.
 */
export async function putVisitor(store: Store, cls: RosterClass, user: User, role: string): Promise<void> {
  await store.applyRoster(changes({
    memberships: { put: [{ userId: user.id, organisationId: cls.organisationId, role }], remove: [] },
    enrolments: { put: [{ classId: cls.id, userId: user.id, role, primary: false }], remove: [] },
  }));
}

/** Puts a roster hold on a user (left the school, or disabled in its system) since `at`, as an import does. */
export async function putHold(store: Store, userId: string, hold: 'left' | 'disabled', at: string): Promise<void> {
  await store.applyRoster(changes({ holds: [{ userId, hold, at }] }));
}

/** Removes a class, as an import does when the school's roster no longer has it (its enrolments go with it). */
export async function removeClass(store: Store, classId: string): Promise<void> {
  await store.applyRoster(changes({ classes: { put: [], remove: [classId] } }));
}

const changes = (some: Partial<RosterChanges>): RosterChanges => ({
  organisations: [], users: [], holds: [], memberships: { put: [], remove: [] }, academicSessions: { put: [], remove: [] },
  classes: { put: [], remove: [] }, enrolments: { put: [], remove: [] },
  run: { id: randomUUID(), at: new Date().toISOString(), by: 'test', format: 'one-file', digest: randomUUID(), organisations: [], counts: {} },
  ...some,
});
