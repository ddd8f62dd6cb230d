import type { CredentialKind, Organisation, RosterClass, Store, User } from '../../adapters/store.js';
import type { Clock } from '../clock.js';
import { forgetImportRecords } from '../accounts/import-records.js';

/**
 * What staff can do to a user account as a whole (docs/configuration.md → Adding clients and users; the `lanyard users …` commands call these).
 * Each takes effect at once on every instance: the store moves the user's sessionsValidAfter and removes the
 * account's sessions, grants, codes and tokens (Directory.endSessions); findAccount and the login policy
 * refuse whatever a request under way writes back (src/accounts/account-status.ts). Apps' own sessions are
 * theirs to end.
 */

/** Ends every Lanyard session of the user and revokes their grants: refresh and access tokens stop working. */
export async function signOutEverywhere(store: Store, user: User): Promise<void> {
  await store.endSessions(user.id);
}

/** The user can no longer sign in by any method, and what they were signed in to ends. Claims do not change. */
export async function suspend(store: Store, clock: Clock, user: User): Promise<void> {
  await store.setSuspended(user.id, user.suspendedAt ?? clock.now().toISOString());
}

/** The user can sign in again (sessions ended by the suspension stay ended). */
export async function unsuspend(store: Store, user: User): Promise<void> {
  await store.setSuspended(user.id, undefined);
}

/**
 * Erases the user: their record, credentials, badges, grants, sessions and tokens, and what imports
 * remembered of them. Only the id is kept, so that it is never another user's `sub` (SPEC: `sub` is
 * stable). A user still in the configuration file comes back at the next start, as a new user with a new id.
 */
export async function deleteUser(store: Store, clock: Clock, user: User): Promise<void> {
  await store.deleteUser(user.id, clock.now().toISOString());
  await forgetImportRecords(store, user.id);
}

/** One line of `lanyard users list`: what a member of staff may see, never a secret or a hash. */
export interface UserListing {
  id: string;
  username: string;
  givenName: string;
  familyName: string;
  type: string;
  /** The titles of the classes the user is enrolled in (in any role), by title. */
  classes: string[];
  /** Which credentials are set, of password and emoji. */
  credentials: CredentialKind[];
  /** Whether the user holds an active badge. */
  badge: boolean;
  suspended: boolean;
  /** The last successful sign-in (ISO 8601), or null when they never signed in. */
  lastSignIn: string | null;
}

/**
 * The organisation's users, by username, with their classes, which ways in each has and when they last
 * signed in; only the members of `inClass` (any role) when it is given.
 */
export async function listUsers(store: Store, organisation: Organisation, o: { inClass?: RosterClass } = {}): Promise<UserListing[]> {
  const [users, credentials, holders, classes, enrolments, signIns] = await Promise.all([
    store.listUsers(organisation.id), store.credentialKinds(organisation.id), store.badgeHolders(organisation.id),
    store.listClasses(organisation.id), store.organisationEnrolments(organisation.id), store.lastSignIns(organisation.id),
  ]);
  const titles = new Map(classes.map((c) => [c.id, c.title]));
  const classesOf = new Map<string, string[]>();
  for (const e of enrolments) {
    const title = titles.get(e.classId);
    if (title !== undefined) classesOf.set(e.userId, [...(classesOf.get(e.userId) ?? []), title]);
  }
  const members = o.inClass && new Set(enrolments.filter((e) => e.classId === o.inClass!.id).map((e) => e.userId));
  return users.filter((u) => !members || members.has(u.id)).map((u) => ({
    id: u.id,
    username: u.username,
    givenName: u.givenName,
    familyName: u.familyName,
    type: u.type,
    classes: (classesOf.get(u.id) ?? []).sort(byTitle),
    credentials: credentials.get(u.id) ?? [],
    badge: holders.has(u.id),
    suspended: !!u.suspendedAt,
    lastSignIn: signIns.get(u.id) ?? null,
  }));
}

const byTitle = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }).compare;
