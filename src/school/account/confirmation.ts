import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '../../../adapters/store.js';
import { SIGN_IN_WAIT, verifyCredential } from '../../accounts/credential-hasher.js';
import { looksLikeTotpCode } from '../../accounts/totp.js';
import type { Raw } from '../../web/html.js';
import type { StaffSignedIn } from '../area.js';
import type { SchoolDeps } from '../deps.js';
import { staffAttemptPage } from '../staff-attempt.js';
import { StaffSecondFactors } from '../staff-second-factor.js';

/**
 * How a signed-in member of staff confirms it is them again before a change a stolen session must not make
 * alone (docs/school-console.md → Signing in and your account):
 * - `code`: a fresh code from their authenticator app (never a recovery code) — making an API token with
 *   two-step sign-in on;
 * - `password`: their password — without two-step sign-in, when they have one;
 * - `code-or-password`: either (six digits are a code: a password is at least eight characters) — new
 *   recovery codes, two-step sign-in off;
 * - `recent`: nothing more, as they signed in to the console within the last 10 minutes (its sign-in always
 *   asks for their credential again) — setting two-step sign-in up, or a token, without a password;
 * - `sign-in-again`: nothing they could type will do: they sign in again first.
 * Codes and passwords are checked through the guessing protection (src/school/staff-attempt.ts).
 */
export type ConfirmWith = 'code' | 'password' | 'code-or-password' | 'recent' | 'sign-in-again';

export type ConfirmPurpose = 'token' | 'second-factor' | 'set-up';

/** A sign-in this recent confirms it is them. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

export const recentSignIn = (deps: Pick<SchoolDeps, 'clock'>, who: StaffSignedIn): boolean =>
  deps.clock.now().getTime() - who.session.authAt < RECENT_SIGN_IN_SECONDS * 1000;

/** Whether the user has a Lanyard password (staff who sign in with Google or Microsoft may have none). */
export const hasPassword = async (deps: Pick<SchoolDeps, 'store'>, user: Pick<User, 'id'>): Promise<boolean> =>
  (await deps.store.getCredential(user.id, 'password')) !== undefined;

/** What confirms it is them, for this purpose, now. */
export async function confirmWith(deps: Pick<SchoolDeps, 'store' | 'clock'>, who: StaffSignedIn, purpose: ConfirmPurpose): Promise<ConfirmWith> {
  const user = who.account.user;
  const [factor, password] = await Promise.all([deps.store.getStaffSecondFactor(user.id), hasPassword(deps, user)]);
  const fallback = recentSignIn(deps, who) ? 'recent' : 'sign-in-again';
  switch (purpose) {
    case 'token':
      return factor ? 'code' : password ? 'password' : fallback;
    case 'second-factor':
      return password ? 'code-or-password' : 'code';
    case 'set-up':
      return recentSignIn(deps, who) ? 'recent' : password ? 'password' : 'sign-in-again';
  }
}

/**
 * Checks what was typed (the form's `confirm` field) the way `how` says. True when confirmed; false when
 * `how` asks for nothing that could be typed (`sign-in-again`); undefined once a refusal is answered
 * (`retry`: the form again with the message, for the status).
 */
export async function confirmIdentity(
  deps: SchoolDeps, req: FastifyRequest, reply: FastifyReply, who: StaffSignedIn, how: ConfirmWith, typed: string,
  retry: (status: number, message: string | Raw) => string,
): Promise<boolean | undefined> {
  const user = who.account.user;
  if (how === 'recent') return true;
  if (how === 'sign-in-again') return false;
  const code = how === 'code' || (how === 'code-or-password' && looksLikeTotpCode(typed));
  if (code) {
    const factors = new StaffSecondFactors(deps);
    return staffAttemptPage(deps, req, reply, user, 'secondFactor', async () => (await factors.totpCodeMatches(user, typed.trim())) || undefined, retry);
  }
  return staffAttemptPage(deps, req, reply, user, 'password', async () => {
    const hash = await deps.store.getCredential(user.id, 'password');
    return (hash !== undefined && (await verifyCredential(hash, typed, SIGN_IN_WAIT))) || undefined;
  }, retry);
}
