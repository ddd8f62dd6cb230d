import type { RosterClass, User } from '../../adapters/store.js';
import type { Factor } from '../accounts/login-throttle.js';
import { classPupils, type SchoolAccess } from './access.js';
import type { SchoolDeps } from './deps.js';

/**
 * A class's pupils as a teacher sees them (docs/school-console.md → Teachers): which ways in each has (a
 * password, an emoji password, a badge), whether they are locked out (their unknown-device path stopped after
 * too many wrong tries: staff unlock it) or may not sign in at all, and when they last signed in.
 */
export interface PupilStatus {
  user: User;
  methods: ('password' | 'emoji' | 'badge')[];
  /** The ways in stopped until staff unlock them (an unknown device's password or emoji path). */
  lockedMethods: Factor[];
  suspended: boolean;
  rosterHold?: 'left' | 'disabled' | undefined;
  /** ISO 8601; undefined when they never signed in. */
  lastSignIn?: string | undefined;
}

/** Each pupil of the class (classPupils: the member of staff may see it), by family then given name. */
export async function pupilStatuses(deps: Pick<SchoolDeps, 'store' | 'throttle'>, school: SchoolAccess, klass: RosterClass): Promise<PupilStatus[]> {
  const { store, throttle } = deps;
  const pupils = await classPupils(store, school, klass);
  // What each pupil holds is kept by their own school (a pupil of another school of the district may be in the class).
  const byOrganisation = new Map<string, Promise<[Map<string, string[]>, Set<string>, Map<string, string>]>>();
  const waysIn = (organisationId: string) => {
    let found = byOrganisation.get(organisationId);
    if (!found) {
      found = Promise.all([store.credentialKinds(organisationId), store.badgeHolders(organisationId), store.lastSignIns(organisationId)]);
      byOrganisation.set(organisationId, found);
    }
    return found;
  };
  return Promise.all(pupils.map(async (user) => {
    const [credentials, badges, signIns] = await waysIn(user.organisationId);
    const methods = [...(credentials.get(user.id) ?? []), ...(badges.has(user.id) ? ['badge'] : [])] as PupilStatus['methods'];
    return {
      user,
      methods,
      lockedMethods: await throttle.stoppedFactors(user.organisationId, user.username),
      suspended: !!user.suspendedAt,
      rosterHold: user.rosterHold,
      lastSignIn: signIns.get(user.id),
    };
  }));
}
