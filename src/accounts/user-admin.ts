import type { CredentialKind, Organisation, RosterClass, Store, User } from '../../adapters/store.js';
import { compareNoCase } from '../../adapters/store/collation.js';
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
  /**
   * The user's own organisation when it is not the one listed (a member of a class of this school whose own
   * school is another one of the district), else null.
   */
  ownOrganisation: { slug: string; name: string } | null;
  /** The titles of the classes the user is enrolled in (in any role), by title. */
  classes: string[];
  /** Which credentials are set, of password and emoji. */
  credentials: CredentialKind[];
  /** Whether the user holds an active badge. */
  badge: boolean;
  suspended: boolean;
  /** A hold the roster put on the user (left the school, or disabled in its system), or null: they cannot sign in. */
  rosterHold: 'left' | 'disabled' | null;
  /** When the hold began (ISO 8601), or null. */
  rosterHoldSince: string | null;
  /** The last successful sign-in (ISO 8601), or null when they never signed in. */
  lastSignIn: string | null;
}

/** What is listed of the users of one organisation: their credentials, badges and last sign-ins. */
interface Ways { credentials: Map<string, CredentialKind[]>; badges: Set<string>; signIns: Map<string, string> }

const waysIn = async (store: Store, organisationId: string): Promise<Ways> => {
  const [credentials, badges, signIns] = await Promise.all([
    store.credentialKinds(organisationId), store.badgeHolders(organisationId), store.lastSignIns(organisationId),
  ]);
  return { credentials, badges, signIns };
};

/**
 * The organisation's users, by username, with their classes, which ways in each has, whether they may sign in
 * and when they last did; with `inClass`, every member of that class (any role) instead, members whose own
 * school is another one included (what they hold is looked up there); with `withMembers`, the organisation's
 * users and every member of its classes whose own school is another one.
 */
export async function listUsers(store: Store, organisation: Organisation, o: { inClass?: RosterClass; withMembers?: boolean } = {}): Promise<UserListing[]> {
  const [own, classes, enrolments] = await Promise.all([
    store.listUsers(organisation.id), store.listClasses(organisation.id), store.organisationEnrolments(organisation.id),
  ]);
  const titles = new Map(classes.map((c) => [c.id, c.title]));
  const classesOf = new Map<string, string[]>();
  for (const e of enrolments) {
    const title = titles.get(e.classId);
    if (title !== undefined) classesOf.set(e.userId, [...(classesOf.get(e.userId) ?? []), title]);
  }
  const users = o.inClass ? await classMembers(store, own, enrolments.filter((e) => e.classId === o.inClass!.id).map((e) => e.userId))
    : o.withMembers ? await classMembers(store, own, [...own.map((u) => u.id), ...enrolments.map((e) => e.userId)]) : own;
  const organisations = new Map<string, { organisation: Organisation; ways: Ways }>();
  for (const id of new Set([organisation.id, ...users.map((u) => u.organisationId)])) {
    const found = id === organisation.id ? organisation : await store.findOrganisation(id);
    if (found) organisations.set(id, { organisation: found, ways: await waysIn(store, id) });
  }
  return users.map((u) => {
    const home = organisations.get(u.organisationId);
    return {
      id: u.id,
      username: u.username,
      givenName: u.givenName,
      familyName: u.familyName,
      type: u.type,
      ownOrganisation: home && u.organisationId !== organisation.id ? { slug: home.organisation.slug, name: home.organisation.name } : null,
      classes: (classesOf.get(u.id) ?? []).sort(byTitle),
      credentials: home?.ways.credentials.get(u.id) ?? [],
      badge: home?.ways.badges.has(u.id) ?? false,
      suspended: !!u.suspendedAt,
      rosterHold: u.rosterHold ?? null,
      rosterHoldSince: u.rosterHold ? u.rosterHoldSince ?? null : null,
      lastSignIn: home?.ways.signIns.get(u.id) ?? null,
    };
  });
}

/** The users of `memberIds`: those of the organisation (`own`, by username) and those of other ones, by username too. */
async function classMembers(store: Store, own: User[], memberIds: string[]): Promise<User[]> {
  const members = new Set(memberIds);
  const ownIds = new Set(own.map((u) => u.id));
  const others = await Promise.all([...members].filter((id) => !ownIds.has(id)).map((id) => store.findUser(id)));
  const visitors = others.filter((u): u is User => u !== undefined);
  return [...own.filter((u) => members.has(u.id)), ...visitors].sort((a, b) => compareNoCase(a.username, b.username));
}

const byTitle = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }).compare;
