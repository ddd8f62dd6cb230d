import { createHmac, randomInt } from 'node:crypto';
import type { HelpCode, Organisation, Store, User } from '../../adapters/store.js';
import { derivedKey } from '../keys/derived-key.js';
import type { Clock } from '../clock.js';
import { SANDBOX_SLUG } from '../config/reserved.js';
import type { SchoolDaySettings } from '../config/school-day.js';
import { maySignIn } from './account-status.js';
import { isStaffAnywhere } from './school-staff.js';
import { helpCodeExpiry } from './help-code-expiry.js';

export { helpCodeExpiry, HELP_CODE_MAX_HOURS } from './help-code-expiry.js';

/**
 * Help codes (docs/childrens-sign-in.md → Help codes): a member of staff gives a pupil who forgot their
 * credential a one-time code of 6 digits, which signs in that pupil only, once, until the end of the school day
 * and at most 8 hours. The store keeps an HMAC of it under the pupil, never the code, under a key derived from the
 * key-encryption key, which is not in the store: a copy of the store cannot be searched for the codes (docs/storage.md
 * → What a copy of the store gives away). 5 wrong codes for the
 * pupil void it (HELP_CODE_MAX_FAILURES), and the sign-in screens count every try in the guessing protection
 * (interactions/help-code.ts), so a guesser's chance is at most 5 in 1,000,000 per code issued
 * (docs/security.md → Help codes).
 */
export const HELP_CODE_LENGTH = 6;
/** Wrong codes tried for a pupil before their code is void. */
export const HELP_CODE_MAX_FAILURES = 5;

const CODES = 10 ** HELP_CODE_LENGTH;

/**
 * Whether the school's sign-in screens offer "I have a help code": every school's, whatever its login methods
 * (a code is given by its staff, not chosen by the school), except the developer sandbox's, which has no staff.
 */
export const offersHelpCodes = (organisation: Pick<Organisation, 'slug'>): boolean => organisation.slug !== SANDBOX_SLUG;

/** A code as typed (spaces and dashes allowed between the digits), or undefined when it is not 6 digits. */
export function normaliseHelpCode(typed: unknown): string | undefined {
  if (typeof typed !== 'string' || typed.length > 40) return undefined;
  const digits = typed.replace(/[\s-]/g, '');
  return new RegExp(`^[0-9]{${HELP_CODE_LENGTH}}$`).test(digits) ? digits : undefined;
}

/** A code shown to people: `123 456`, easier to read out and to copy. */
export const spacedHelpCode = (code: string): string => `${code.slice(0, 3)} ${code.slice(3)}`;

/** A code issued: the code itself is shown once and kept nowhere. */
export interface IssuedHelpCode {
  code: string;
  expiresAt: Date;
}

/**
 * Why a code was not issued: it was for the one giving it, or for a member of staff (codes are for pupils), or
 * the person may not sign in at all, or does not sign in at this school.
 */
export type HelpCodeRefusal = 'oneself' | 'staff' | 'may_not_sign_in' | 'other_school';

type StaffReads = Pick<Store, 'userStaffGrants' | 'userEnrolments'>;

/**
 * Why `user` cannot be given a code at the school `organisationId` by the user `issuedBy`, or undefined when
 * they can. Codes are for pupils only: never for a member of staff of any school (a grant, or teaching a class:
 * src/accounts/school-staff.ts), whose sign-in opens a school console, and never for oneself.
 */
export async function helpCodeRefusal(store: StaffReads, user: User, organisationId: string, issuedBy?: string): Promise<HelpCodeRefusal | undefined> {
  if (user.id === issuedBy) return 'oneself';
  if (await isStaffAnywhere(store, user.id)) return 'staff';
  if (user.organisationId !== organisationId) return 'other_school';
  return maySignIn(user) ? undefined : 'may_not_sign_in';
}

type HelpCodeStore = StaffReads & Pick<Store, 'putHelpCode' | 'tryHelpCode' | 'deleteHelpCode' | 'listHelpCodes' | 'findHelpCode' | 'findUserByUsername'>;

export interface HelpCodesDeps {
  store: HelpCodeStore;
  clock: Clock;
  schoolDay: SchoolDaySettings;
  /** The key-encryption key (shared by every instance, kept outside the store): the HMAC key is derived from it. */
  keyEncryptionKey: Buffer;
}

export class HelpCodes {
  readonly #key: Buffer;

  constructor(private readonly deps: HelpCodesDeps) {
    this.#key = derivedKey(deps.keyEncryptionKey, 'help code hmac v1');
  }

  /** The code's HMAC, bound to the pupil: a hash stored for one pupil never matches another's code. */
  #hash(userId: string, code: string): string {
    return createHmac('sha256', this.#key).update(`${userId}\n${code}`).digest('hex');
  }

  /**
   * Issues a code for `user` of the school `organisationId`, replacing their earlier one: crypto-random, until
   * the end of the school day and at most 8 hours. Refused for oneself, for a member of staff, for someone who
   * may not sign in (suspended, held by the roster) and for someone whose own school is another (they sign in there).
   */
  async issue(user: User, organisationId: string, issuedBy: string): Promise<IssuedHelpCode | { refused: HelpCodeRefusal }> {
    const refused = await helpCodeRefusal(this.deps.store, user, organisationId, issuedBy);
    if (refused) return { refused };
    const code = String(randomInt(0, CODES)).padStart(HELP_CODE_LENGTH, '0');
    const now = this.deps.clock.now();
    const expiresAt = helpCodeExpiry(now, this.deps.schoolDay);
    await this.deps.store.putHelpCode({
      userId: user.id, organisationId, codeHash: this.#hash(user.id, code), createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(), issuedBy, failures: 0,
    });
    return { code, expiresAt };
  }

  /**
   * The user `username` of `organisation` when `typed` is their live code, which is then used up; undefined for
   * anything else (no such user, no live code, a wrong one: counted, and the 5th voids the code; a user who may
   * not sign in; a member of staff, whatever code they were given before they became one). An unknown user costs
   * the same store round trip as a known one.
   */
  async redeem(organisation: Organisation, username: string, typed: string): Promise<User | undefined> {
    const code = normaliseHelpCode(typed);
    const user = username ? await this.deps.store.findUserByUsername(organisation.id, username.trim()) : undefined;
    const now = this.deps.clock.now().toISOString();
    if (!user || !code) {
      // Nobody's code: no user id is an empty string, so this finds nothing and changes nothing.
      await this.deps.store.tryHelpCode('', '', now, HELP_CODE_MAX_FAILURES);
      return undefined;
    }
    const outcome = await this.deps.store.tryHelpCode(user.id, this.#hash(user.id, code), now, HELP_CODE_MAX_FAILURES);
    if (outcome !== 'used' || !maySignIn(user)) return undefined;
    return (await isStaffAnywhere(this.deps.store, user.id)) ? undefined : user;
  }

  /** The pupil's live code (its record: never the code), if any. */
  live(userId: string): Promise<HelpCode | undefined> {
    return this.deps.store.findHelpCode(userId, this.deps.clock.now().toISOString());
  }

  /** The school's live codes, soonest to expire first. */
  list(organisationId: string): Promise<HelpCode[]> {
    return this.deps.store.listHelpCodes(organisationId, this.deps.clock.now().toISOString());
  }

  /** Voids the pupil's code; false when there was none. */
  cancel(userId: string): Promise<boolean> {
    return this.deps.store.deleteHelpCode(userId);
  }
}
