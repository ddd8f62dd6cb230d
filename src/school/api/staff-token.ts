import { maySignIn } from '../../accounts/account-status.js';
import { needsSecondFactor, type StaffMember, staffMember } from '../access.js';
import { StaffApiTokens, type StaffTokenDeps } from '../staff-api-tokens.js';

/** RFC 6750 §2.1: `Bearer` (any case), then one b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** Something in a URL shaped like a staff token (a token must never travel in one: it would be logged). */
export const STAFF_TOKEN_SHAPED = /lys_[0-9a-f]{16}_/i;

/**
 * The member of staff a request to /school/api acts as, from its `Authorization: Bearer lys_…` header
 * (docs/school-console.md → Signing in and your account): the token found by its id, its hash compared in
 * constant time, not expired nor made before the person's sessions last ended; the person may still sign in
 * (not suspended, not held by the roster) and is still staff of some school (their roles are read now, so a
 * role withdrawn takes effect at once); a school admin still has two-step sign-in on. Its lastUsedAt is then
 * touched. Undefined for anything else — no header, another scheme, a malformed, unknown, wrong, expired or
 * revoked token, someone no longer staff — never saying which. Store failures propagate (the API answers 503).
 */
export async function authenticateStaffToken(deps: StaffTokenDeps, header: string | undefined): Promise<StaffMember | undefined> {
  const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
  if (!token) return undefined;
  const tokens = new StaffApiTokens(deps);
  const verified = await tokens.verify(token);
  if (!verified || !maySignIn(verified.user)) return undefined;
  const member = await staffMember(deps.store, verified.user);
  if (member.schools.length === 0) return undefined;
  if (needsSecondFactor(member) && !(await deps.store.getStaffSecondFactor(member.user.id))) return undefined;
  await tokens.touch(verified.record);
  return member;
}
