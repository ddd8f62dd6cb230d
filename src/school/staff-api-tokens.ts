import type { StaffApiToken, User } from '../../adapters/store.js';
import {
  DAY_MS, newPersonalToken, parsePersonalToken, PERSONAL_TOKEN_DEFAULT_DAYS, PERSONAL_TOKEN_TOUCH_INTERVAL_MS, personalTokenEndsAt,
} from '../accounts/personal-tokens.js';
import { clientSecretMatches } from '../clients/client-secret.js';
import type { StaffMember } from './access.js';
import type { SchoolDeps } from './deps.js';
import { recordStaffEvent } from './staff-events.js';

/** Staff API tokens are `lys_<id>_<secret>` (src/accounts/personal-tokens.ts). */
export const STAFF_TOKEN_PREFIX = 'lys_';
/** Working tokens one member of staff may hold at once: one for each system and script, not an unbounded number. */
export const STAFF_TOKEN_MAX_ACTIVE = 20;

export type StaffTokenDeps = Pick<SchoolDeps, 'store' | 'clock' | 'audit' | 'log'>;

/**
 * When a token stops working (epoch ms): its expiry, or earlier when the person's sessions ended after it was
 * made (a password changed or reset, two-step sign-in turned on or off, signed out everywhere, suspended).
 */
export function staffTokenEndsAt(token: StaffApiToken, user: Pick<User, 'sessionsValidAfter'>): number {
  const ends = personalTokenEndsAt(token);
  const after = user.sessionsValidAfter;
  return after !== undefined && Date.parse(token.createdAt) < after ? Math.min(ends, after) : ends;
}

/**
 * A member of staff's personal API tokens for /school/api (docs/school-console.md → Signing in and your
 * account): shown once, kept as a SHA-256 hash, with a label and 1 to 90 days of life; listed and revoked on
 * the account page. Making and revoking one is recorded in the audit trail of the person's schools (label and
 * last characters only). Checking one presented to the API is src/school/api/staff-token.ts.
 */
export class StaffApiTokens {
  constructor(private readonly deps: StaffTokenDeps) {}

  /** A new token (the caller checked the label and days, and who asks). Undefined when they hold too many already. */
  async create(member: StaffMember, input: { label: string; days?: number | undefined }): Promise<{ token: string; record: StaffApiToken } | undefined> {
    const { store, clock, log } = this.deps;
    const now = clock.now();
    const working = (await store.listStaffApiTokens(member.user.id)).filter((t) => staffTokenEndsAt(t, member.user) > now.getTime());
    if (working.length >= STAFF_TOKEN_MAX_ACTIVE) return undefined;
    const { id, token, hash, hint } = newPersonalToken(STAFF_TOKEN_PREFIX);
    const record: StaffApiToken = {
      id, userId: member.user.id, hash, label: input.label, hint,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + (input.days ?? PERSONAL_TOKEN_DEFAULT_DAYS) * DAY_MS).toISOString(),
    };
    await store.putStaffApiToken(record);
    recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'api_token.created', detail: { label: record.label, hint, expires: record.expiresAt } });
    log.info({ event: 'school.token_created', userId: member.user.id, tokenId: id, expiresAt: record.expiresAt }, 'staff API token created');
    return { token, record };
  }

  /** The person's tokens, oldest first, those that no longer work included (so they see why a script stopped). */
  list(userId: string): Promise<StaffApiToken[]> {
    return this.deps.store.listStaffApiTokens(userId);
  }

  /** Revokes one of the person's own tokens; false when they have no such token. */
  async revoke(member: StaffMember, tokenId: string): Promise<boolean> {
    const record = await this.deps.store.findStaffApiToken(tokenId);
    if (!record || record.userId !== member.user.id || !(await this.deps.store.deleteStaffApiToken(member.user.id, tokenId))) return false;
    recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'api_token.revoked', detail: { label: record.label, hint: record.hint } });
    this.deps.log.info({ event: 'school.token_revoked', userId: member.user.id, tokenId }, 'staff API token revoked');
    return true;
  }

  /**
   * The token's record and user when `token` is a working staff token: well formed, known, its hash matching
   * (compared in constant time), not expired, made after the user's sessions last ended. Undefined otherwise,
   * never saying why. Store failures propagate (a 503, not "bad token"). Whether the user may still act
   * (src/school/api/staff-token.ts) is the caller's; then touch().
   */
  async verify(token: string): Promise<{ record: StaffApiToken; user: User } | undefined> {
    const { store, clock, log } = this.deps;
    const parsed = parsePersonalToken(STAFF_TOKEN_PREFIX, token);
    if (!parsed) return undefined;
    const record = await store.findStaffApiToken(parsed.id);
    const refused = (reason: string) => {
      log.info({ event: 'school.token_refused', tokenId: parsed.id, reason }, 'staff API token refused');
      return undefined;
    };
    if (!record || !clientSecretMatches(record.hash, token)) return refused(record ? 'mismatch' : 'unknown');
    const user = await store.findUser(record.userId);
    if (!user) return refused('user_gone');
    if (staffTokenEndsAt(record, user) <= clock.now().getTime()) return refused('expired');
    return { record, user };
  }

  /** Notes that the token was used now (lastUsedAt, a reminder for people: at most one write a minute). */
  async touch(record: StaffApiToken): Promise<void> {
    const now = this.deps.clock.now();
    if (!record.lastUsedAt || now.getTime() - Date.parse(record.lastUsedAt) >= PERSONAL_TOKEN_TOUCH_INTERVAL_MS) {
      await this.deps.store.touchStaffApiToken(record.id, now.toISOString());
    }
  }
}
