import type { User } from '../../adapters/store.js';

/**
 * Whether a user may still use what they were given: the one rule for sign-in, sessions and tokens.
 * A suspended user may do nothing; a session or token only counts when it began at or after the user's
 * sessionsValidAfter (moved forward by a credential change, a suspension or `users signout`).
 */

/**
 * A suspended user, or one the roster holds (left the school, or disabled in its information system), cannot
 * sign in by any method (the sign-in answers as for a wrong secret).
 */
export const maySignIn = (user: User): boolean => !user.suspendedAt && !user.rosterHold;

/**
 * Whether a session signed in, or a token issued, at `issuedAt` (epoch seconds, as oidc-provider stamps
 * them: `loginTs`, `authTime`, `iat`) still counts for the user. Those stamps are whole seconds, so a
 * session begun in the second the sessions were ended still counts: a user signing in again right after a
 * reset is not sent round the login again. What existed before the end was also removed from the store
 * then (Directory.endSessions), so that second is covered too; this check catches what a request already
 * under way wrote back afterwards.
 */
export function stillValid(user: User | undefined, issuedAt: number | undefined): user is User {
  if (!user || !maySignIn(user)) return false;
  if (user.sessionsValidAfter === undefined) return true;
  return issuedAt !== undefined && issuedAt >= Math.floor(user.sessionsValidAfter / 1000);
}

/** The instant an oidc-provider session or token began: its sign-in when it carries one, else its issue. */
export function issuedAtOf(token: { authTime?: unknown; iat?: unknown } | undefined, session: { loginTs?: unknown } | undefined): number | undefined {
  const pick = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return token ? pick(token.authTime) ?? pick(token.iat) : pick(session?.loginTs);
}
