import { sessionsEndNow, type User } from '../../adapters/store.js';
import { maySignIn } from '../accounts/account-status.js';
import { ROUTES } from '../routes.js';
import type { AreaFrame } from '../web/area/area-frame.js';
import type { SessionAccount } from '../web/area/area-sessions.js';
import { type AreaSignedIn, SignedInArea } from '../web/area/signed-in-area.js';
import type { SchoolDeps } from './deps.js';
import { SchoolForbiddenError } from './errors.js';

/**
 * The school console as a signed-in area (src/web/area/): its sessions end after 30 minutes without a request
 * and 8 hours after sign-in, at sign-out, and when the person's Lanyard sessions end (a credential replaced,
 * "sign out everywhere", a suspension, the roster's hold). Its cookies live on /school.
 */
export const SCHOOL_PATH = ROUTES.school;
export const SIGN_IN_PATH = `${SCHOOL_PATH}/sign-in`;
export const SIGN_OUT_PATH = `${SCHOOL_PATH}/sign-out`;
export const IDLE_SECONDS = 30 * 60;
export const ABSOLUTE_SECONDS = 8 * 60 * 60;

/** A member of staff as the console's sessions know them: the Lanyard user. */
export interface StaffAccount extends SessionAccount {
  user: User;
}

/** The user as a session's account; undefined when they may not sign in (suspended, held by the roster). */
export function staffAccount(user: User | undefined): StaffAccount | undefined {
  if (!user || !maySignIn(user)) return undefined;
  const after = user.sessionsValidAfter;
  return { id: user.id, user, sessionsValidAfter: after === undefined ? undefined : new Date(after).toISOString() };
}

/** A member of staff signed in to the console in this browser. */
export type StaffSignedIn = AreaSignedIn<StaffAccount>;

/** A page of the console (`next`) as far as it may be followed; anything else is the console's home. */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith(`${SCHOOL_PATH}/`) && next !== SCHOOL_PATH) return SCHOOL_PATH;
  // One path of ours: no scheme, no host, no backslash tricks, not the sign-in itself.
  if (/[\\\s]|^\/\/|\/\.\.?(\/|$)/.test(next) || next.startsWith(SIGN_IN_PATH) || next.startsWith(`${SCHOOL_PATH}/api`)) return SCHOOL_PATH;
  return next;
}

const areas = new WeakMap<SchoolDeps, SignedInArea<StaffAccount>>();

export function area(deps: SchoolDeps): SignedInArea<StaffAccount> {
  let made = areas.get(deps);
  if (!made) {
    made = new SignedInArea<StaffAccount>({
      name: 'school',
      path: SCHOOL_PATH,
      signInPath: SIGN_IN_PATH,
      home: SCHOOL_PATH,
      safeNext,
      idleSeconds: IDLE_SECONDS,
      absoluteSeconds: ABSOLUTE_SECONDS,
      account: async (id) => staffAccount(await deps.store.findUser(id)),
      csrfRefused: () => new SchoolForbiddenError('This form had been open too long. Go back and try again.'),
      cookieKeys: deps.cookieKeys,
      keyEncryptionKey: deps.keyEncryptionKey,
      secureCookies: deps.secureCookies,
      store: deps.store,
      clock: deps.clock,
      // A user's sessionsValidAfter is wall time (the store's sessionsEndNow), whatever the console's clock.
      validAfterClock: { now: () => new Date(sessionsEndNow()) },
    });
    areas.set(deps, made);
  }
  return made;
}

/** The console's menu entries. */
export type SchoolNav = 'classes' | 'help-codes' | 'people' | 'roster' | 'apps' | 'audit' | 'account';

/**
 * The console's frame for a school: Classes and Help codes for everyone; People, Roster, Apps and Audit for its admins;
 * Account. Without a school (the school picker, the account page), Schools and Account.
 */
export function schoolFrame(school: { slug: string; admin: boolean } | undefined): AreaFrame<SchoolNav> {
  const base = school ? `${SCHOOL_PATH}/${encodeURIComponent(school.slug)}` : SCHOOL_PATH;
  const nav: { id: SchoolNav; label: string; href: string }[] = [{ id: 'classes', label: school ? 'Classes' : 'Schools', href: base }];
  if (school) nav.push({ id: 'help-codes', label: 'Help codes', href: `${base}/help-codes` });
  if (school?.admin) {
    nav.push(
      { id: 'people', label: 'People', href: `${base}/people` },
      { id: 'roster', label: 'Roster', href: `${base}/roster` },
      { id: 'apps', label: 'Apps', href: `${base}/apps` },
      { id: 'audit', label: 'Audit', href: `${base}/audit` },
    );
  }
  nav.push({ id: 'account', label: 'Account', href: `${SCHOOL_PATH}/account` });
  return { label: 'School console', brand: { href: base, sub: 'for school staff' }, nav, signOut: SIGN_OUT_PATH };
}
