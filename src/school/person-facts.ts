import type { CredentialKind, User } from '../../adapters/store.js';
import type { Factor } from '../accounts/login-throttle.js';
import type { SchoolAccess } from './access.js';
import type { SchoolDeps } from './deps.js';

/** What the console shows of one person (docs/school-console.md → People and staff): never a secret or a hash. */
export interface PersonFacts {
  user: User;
  /** Their own school, when it is not this one (a member of its classes from another school of the district). */
  ownSchool?: string | undefined;
  /** This school's classes they are in (id and title), with their role there. */
  classes: { id: string; title: string; role: string }[];
  credentials: CredentialKind[];
  badge: boolean;
  /** ISO 8601, or undefined when they never signed in. */
  lastSignIn?: string | undefined;
  /** The ways in stopped after too many wrong tries from new devices, until staff unlock them (src/accounts/login-throttle.ts). */
  locked: Factor[];
}

export async function personFacts(deps: SchoolDeps, school: SchoolAccess, user: User): Promise<PersonFacts> {
  const { store } = deps;
  const [password, emoji, badges, signIns, enrolments, own, locked] = await Promise.all([
    store.getCredential(user.id, 'password'), store.getCredential(user.id, 'emoji'), store.badgeHolders(user.organisationId),
    store.lastSignIns(user.organisationId), store.userEnrolments(user.id),
    user.organisationId === school.organisation.id ? undefined : store.findOrganisation(user.organisationId),
    // A person signs in at their own school: the lock is counted there.
    deps.throttle.stoppedFactors(user.organisationId, user.username),
  ]);
  const classes = (await Promise.all(enrolments.map(async (e) => {
    const c = await store.findClass(school.organisation.id, e.classId);
    return c && c.id === e.classId ? [{ id: c.id, title: c.title, role: e.role }] : [];
  }))).flat();
  const credentials: CredentialKind[] = [...(password !== undefined ? ['password' as const] : []), ...(emoji !== undefined ? ['emoji' as const] : [])];
  return { user, ownSchool: own?.name, classes, credentials, badge: badges.has(user.id), lastSignIn: signIns.get(user.id), locked };
}
