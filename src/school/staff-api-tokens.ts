import type { StaffApiToken, User } from '../../adapters/store.js';
import { type PersonalTokenKind, PersonalTokens } from '../accounts/personal-token-service.js';
import type { StaffMember } from './access.js';
import type { SchoolDeps } from './deps.js';
import { recordStaffEvent } from './staff-events.js';

/** Staff API tokens are `lys_<id>_<secret>` (src/accounts/personal-tokens.ts). */
export const STAFF_TOKEN_PREFIX = 'lys_';
/** Working tokens one member of staff may hold at once: one for each system and script, not an unbounded number. */
export const STAFF_TOKEN_MAX_ACTIVE = 20;

export type StaffTokenDeps = Pick<SchoolDeps, 'store' | 'clock' | 'audit' | 'log'>;

/** A member of staff's personal tokens where the store keeps them (src/accounts/personal-token-service.ts). */
const staffTokens = (store: StaffTokenDeps['store']): PersonalTokenKind<StaffApiToken, User> => ({
  prefix: STAFF_TOKEN_PREFIX,
  maxActive: STAFF_TOKEN_MAX_ACTIVE,
  log: { event: 'school.token', owner: 'userId', what: 'staff API token' },
  ownerOf: (t) => t.userId,
  record: (userId, fields) => ({ ...fields, userId }),
  put: (t) => store.putStaffApiToken(t),
  find: (id) => store.findStaffApiToken(id),
  list: (userId) => store.listStaffApiTokens(userId),
  delete: (userId, id) => store.deleteStaffApiToken(userId, id),
  touch: (id, at) => store.touchStaffApiToken(id, at),
  owner: (userId) => store.findUser(userId),
  sessionsEndedAt: (user) => user.sessionsValidAfter,
});

/**
 * A member of staff's personal API tokens for /school/api (docs/school-console.md → Signing in and your
 * account): the shared service (src/accounts/personal-token-service.ts) over the store's staff tokens. Shown
 * once, kept as a SHA-256 hash, with a label and 1 to 90 days of life; listed and revoked on the account page;
 * a token stops working at its expiry or when the person's sessions end (a password changed or reset,
 * two-step sign-in turned on or off, signed out everywhere, suspended). Making and revoking one is recorded in
 * the audit trail of the person's schools (label and last characters only). Checking one presented to the
 * API is src/school/api/staff-token.ts.
 */
export class StaffApiTokens {
  readonly #tokens: PersonalTokens<StaffApiToken, User>;

  constructor(private readonly deps: StaffTokenDeps) {
    this.#tokens = new PersonalTokens(deps, staffTokens(deps.store));
  }

  /** When a token stops working (epoch ms): its expiry, or earlier when the person's sessions ended after it was made. */
  endsAt(token: StaffApiToken, user: User): number {
    return this.#tokens.endsAt(token, user);
  }

  /** A new token (the caller checked the label and days, and who asks). Undefined when they hold too many already. */
  async create(member: StaffMember, input: { label: string; days?: number | undefined }): Promise<{ token: string; record: StaffApiToken } | undefined> {
    const made = await this.#tokens.create(member.user.id, member.user, input);
    if (made) {
      const { label, hint, expiresAt } = made.record;
      recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'api_token.created', detail: { label, hint, expires: expiresAt } });
    }
    return made;
  }

  /** The person's tokens, oldest first, those that no longer work included (so they see why a script stopped). */
  list(userId: string): Promise<StaffApiToken[]> {
    return this.#tokens.list(userId);
  }

  /** Revokes one of the person's own tokens; false when they have no such token. */
  async revoke(member: StaffMember, tokenId: string): Promise<boolean> {
    const record = await this.#tokens.revoke(member.user.id, tokenId);
    if (!record) return false;
    recordStaffEvent(this.deps.audit, member, { kind: 'credential', action: 'api_token.revoked', detail: { label: record.label, hint: record.hint } });
    return true;
  }

  /**
   * The token's record and user when `token` is a working staff token; undefined otherwise, never saying why.
   * Store failures propagate (a 503, not "bad token"). Whether the user may still act
   * (src/school/api/staff-token.ts) is the caller's; then touch().
   */
  async verify(token: string): Promise<{ record: StaffApiToken; user: User } | undefined> {
    const verified = await this.#tokens.verify(token);
    return verified && { record: verified.record, user: verified.owner };
  }

  /** Notes that the token was used now (lastUsedAt, a reminder for people: at most one write a minute). */
  touch(record: StaffApiToken): Promise<void> {
    return this.#tokens.touch(record);
  }
}
